// Writes validated event lines to the warehouse in batches: rows go through the appender into two
// temp staging tables as they come (nothing is held in JS), then one transaction per batch moves
// them to events (skipping ids already stored or seen earlier in the batch: the anti-join) and
// event_rejects. A batch is stored whole or not at all.
import type { DuckDBAppender } from '@duckdb/node-api';
import type { Warehouse } from '../store/Warehouse.js';
import { insertStagedEvents, insertStagedRejects } from '../store/writeEvents.js';
import type { EventError } from './EventError.js';
import type { ValidEvent } from './validateEvent.js';

export interface BatchCounts {
  accepted: number;
  duplicates: number;
  rejected: number;
}

const STAGE_EVENTS = 'stage_events';
const STAGE_REJECTS = 'stage_event_rejects';
const NONE: BatchCounts = { accepted: 0, duplicates: 0, rejected: 0 };

export class EventBatchWriter {
  private events: DuckDBAppender | undefined;
  private rejects: DuckDBAppender | undefined;
  private staged = { events: 0, rejects: 0, chars: 0 };

  private constructor(
    private readonly warehouse: Warehouse,
    private readonly params: { source: string; loaded_at: string },
  ) {}

  static async open(warehouse: Warehouse, source: string, loadedAt: Date): Promise<EventBatchWriter> {
    const writer = new EventBatchWriter(warehouse, { source, loaded_at: loadedAt.toISOString() });
    await writer.startBatch();
    return writer;
  }

  /** Lines staged since the last flush, and their size in UTF-16 code units (a memory guide). */
  get pending(): { lines: number; chars: number } {
    return { lines: this.staged.events + this.staged.rejects, chars: this.staged.chars };
  }

  addEvent(line: number, event: ValidEvent): void {
    const appender = this.appender(this.events);
    const payload = JSON.stringify(event.payload);
    appender.appendBigInt(BigInt(line));
    appendText(appender, event.id);
    appender.appendVarchar(event.event_id);
    appender.appendVarchar(event.event_type);
    appender.appendVarchar(event.payload_version);
    appendText(appender, event.occurred_at);
    appender.appendVarchar(payload);
    appender.endRow();
    this.staged.events++;
    this.staged.chars += payload.length;
  }

  addReject(line: number, raw: string, errors: readonly EventError[]): void {
    const appender = this.appender(this.rejects);
    appender.appendBigInt(BigInt(line));
    appender.appendVarchar(raw);
    appender.appendVarchar(JSON.stringify(errors));
    appender.endRow();
    this.staged.rejects++;
    this.staged.chars += raw.length;
  }

  /** Moves what is staged into the tables, all of it or (on error) none of it. */
  async flush(): Promise<BatchCounts> {
    const staged = this.staged;
    if (staged.events + staged.rejects === 0) return NONE;
    this.closeAppenders(); // flushes their last rows into staging
    const accepted = await this.warehouse.transaction(async () => {
      const inserted = staged.events > 0 ? await this.insertEvents() : 0;
      if (staged.rejects > 0) await this.insertRejects();
      return inserted;
    });
    await this.startBatch();
    return { accepted, duplicates: staged.events - accepted, rejected: staged.rejects };
  }

  /** Stores what is left and closes the appenders. */
  async close(): Promise<BatchCounts> {
    const counts = await this.flush();
    this.closeAppenders();
    return counts;
  }

  /** After a failure: closes the appenders, dropping what is staged. */
  discard(): void {
    try {
      this.closeAppenders();
    } catch {
      // the rows could not reach staging: they were being dropped anyway
    }
  }

  private appender(appender: DuckDBAppender | undefined): DuckDBAppender {
    if (!appender) throw new Error('EventBatchWriter: used after close()');
    return appender;
  }

  /**
   * Fresh staging tables (temp: per connection, never written to the file) and appenders on them.
   * The tables are made anew for each batch: DELETE would keep the deleted rows' memory until the end.
   */
  private async startBatch(): Promise<void> {
    await this.warehouse.run(`CREATE OR REPLACE TEMP TABLE ${STAGE_EVENTS} (
      line BIGINT, id VARCHAR, event_id VARCHAR, event_type VARCHAR, payload_version VARCHAR,
      occurred_at VARCHAR, payload VARCHAR)`);
    await this.warehouse.run(`CREATE OR REPLACE TEMP TABLE ${STAGE_REJECTS} (line BIGINT, raw VARCHAR, errors VARCHAR)`);
    const connection = this.warehouse.connection;
    this.events = await connection.createAppender(STAGE_EVENTS, 'main', 'temp');
    this.rejects = await connection.createAppender(STAGE_REJECTS, 'main', 'temp');
    this.staged = { events: 0, rejects: 0, chars: 0 };
  }

  private closeAppenders(): void {
    const { events, rejects } = this;
    this.events = undefined;
    this.rejects = undefined;
    try {
      events?.closeSync();
    } finally {
      rejects?.closeSync();
    }
  }

  private insertEvents(): Promise<number> {
    return insertStagedEvents(this.warehouse, STAGE_EVENTS, this.params);
  }

  private insertRejects(): Promise<void> {
    return insertStagedRejects(this.warehouse, STAGE_REJECTS, this.params);
  }
}

function appendText(appender: DuckDBAppender, value: string | null): void {
  if (value === null) appender.appendNull();
  else appender.appendVarchar(value);
}

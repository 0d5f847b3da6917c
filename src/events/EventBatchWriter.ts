// Writes validated event lines to the warehouse in batches: rows go through the appender into two
// temp staging tables as they come (nothing is held in JS), then one transaction per batch moves
// them to events (skipping ids already stored or seen earlier in the batch) and event_rejects.
import type { DuckDBAppender } from '@duckdb/node-api';
import type { Warehouse } from '../store/Warehouse.js';
import type { EventError } from './EventError.js';
import type { ValidEvent } from './validateEvent.js';

export interface BatchCounts {
  accepted: number;
  duplicates: number;
  rejected: number;
}

const STAGE_EVENTS = 'stage_events';
const STAGE_REJECTS = 'stage_event_rejects';

export class EventBatchWriter {
  private events!: DuckDBAppender;
  private rejects!: DuckDBAppender;
  private appending = false;
  private staged = { events: 0, rejects: 0, bytes: 0 };

  private constructor(
    private readonly warehouse: Warehouse,
    private readonly params: { source: string; loaded_at: string },
  ) {}

  /** Creates the staging tables (temp: per connection, never written to the file). */
  static async open(warehouse: Warehouse, source: string, loadedAt: Date): Promise<EventBatchWriter> {
    await warehouse.run(`CREATE OR REPLACE TEMP TABLE ${STAGE_EVENTS} (
      line BIGINT, id VARCHAR, event_id VARCHAR, event_type VARCHAR, payload_version VARCHAR,
      occurred_at VARCHAR, payload VARCHAR)`);
    await warehouse.run(`CREATE OR REPLACE TEMP TABLE ${STAGE_REJECTS} (line BIGINT, raw VARCHAR, errors VARCHAR)`);
    const writer = new EventBatchWriter(warehouse, { source, loaded_at: loadedAt.toISOString() });
    await writer.openAppenders();
    return writer;
  }

  /** Lines staged since the last flush, and their size in UTF-16 code units (a memory guide). */
  get pending(): { lines: number; chars: number } {
    return { lines: this.staged.events + this.staged.rejects, chars: this.staged.bytes };
  }

  addEvent(line: number, event: ValidEvent): void {
    const appender = this.events;
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
    this.staged.bytes += payload.length;
  }

  addReject(line: number, raw: string, errors: readonly EventError[]): void {
    const appender = this.rejects;
    appender.appendBigInt(BigInt(line));
    appender.appendVarchar(raw);
    appender.appendVarchar(JSON.stringify(errors));
    appender.endRow();
    this.staged.rejects++;
    this.staged.bytes += raw.length;
  }

  /** Moves what is staged into the tables, all of it or (on error) none of it. */
  async flush(): Promise<BatchCounts> {
    const staged = this.staged;
    if (staged.events + staged.rejects === 0) return { accepted: 0, duplicates: 0, rejected: 0 };
    this.closeAppenders();
    this.staged = { events: 0, rejects: 0, bytes: 0 };
    const accepted = await this.warehouse.transaction(async () => {
      const inserted = staged.events > 0 ? await this.insertEvents() : 0;
      if (staged.rejects > 0) await this.insertRejects();
      await this.warehouse.run(`DELETE FROM ${STAGE_EVENTS}`);
      await this.warehouse.run(`DELETE FROM ${STAGE_REJECTS}`);
      return inserted;
    });
    await this.openAppenders();
    return { accepted, duplicates: staged.events - accepted, rejected: staged.rejects };
  }

  /** Flushes what is left and closes the appenders. */
  async close(): Promise<BatchCounts> {
    const counts = await this.flush();
    this.closeAppenders();
    return counts;
  }

  /** Closes the appenders without storing what is staged (after a failure). */
  discard(): void {
    try {
      this.closeAppenders();
    } catch {
      // the appender could not flush its last rows into staging: they are thrown away anyway
    }
  }

  private async openAppenders(): Promise<void> {
    const connection = this.warehouse.connection;
    this.events = await connection.createAppender(STAGE_EVENTS, 'main', 'temp');
    this.rejects = await connection.createAppender(STAGE_REJECTS, 'main', 'temp');
    this.appending = true;
  }

  private closeAppenders(): void {
    if (!this.appending) return;
    this.appending = false;
    try {
      this.events.closeSync();
    } finally {
      this.rejects.closeSync();
    }
  }

  private async insertEvents(): Promise<number> {
    // An id is a duplicate when events holds it (earlier batches and loads: the anti-join) or an
    // earlier line of this batch has it (the window); events without an id are always new.
    const reader = await this.warehouse.reader(`INSERT INTO events
        (id, event_id, event_type, payload_version, occurred_at, payload, loaded_at, source, line)
      SELECT s.id, s.event_id, s.event_type, s.payload_version, CAST(s.occurred_at AS TIMESTAMPTZ),
             CAST(s.payload AS JSON), CAST($loaded_at AS TIMESTAMPTZ), $source, s.line
      FROM ${STAGE_EVENTS} AS s
      WHERE s.id IS NULL OR NOT EXISTS (SELECT 1 FROM events AS e WHERE e.id = s.id)
      QUALIFY s.id IS NULL OR row_number() OVER (PARTITION BY s.id ORDER BY s.line) = 1`, this.params);
    return Number(reader.getRowsJS()[0]?.[0] ?? 0);
  }

  private async insertRejects(): Promise<void> {
    await this.warehouse.run(`INSERT INTO event_rejects (source, line, raw, errors, loaded_at)
      SELECT $source, r.line, r.raw, CAST(r.errors AS JSON), CAST($loaded_at AS TIMESTAMPTZ)
      FROM ${STAGE_REJECTS} AS r
      WHERE NOT EXISTS (
          SELECT 1 FROM event_rejects AS x WHERE x.source = $source AND x.line = r.line AND x.raw = r.raw)`, this.params);
  }
}

function appendText(appender: DuckDBAppender, value: string | null): void {
  if (value === null) appender.appendNull();
  else appender.appendVarchar(value);
}

// Loading events into a real DuckDB file: a JSON Lines file built here from the catalog (valid
// events of several ids, the same with a nested required field removed, broken lines), loaded
// in-process (small batches, so duplicates cross batch boundaries) and through the built CLI
// (exit codes, stdin, usage errors, a busy database).
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { structOf, type FieldSpec } from '../src/events/EventCatalog.js';
import { EventInputError } from '../src/events/errors.js';
import { loadEventCatalog } from '../src/events/loadEventCatalog.js';
import { loadEvents, type LoadError, type LoadEventsOptions, type LoadSummary } from '../src/events/loadEvents.js';
import { sampleEvent } from '../src/events/sampleEvents.js';
import { createLogger } from '../src/log/createLogger.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { holdWriteLock } from '../src/store/WriteSession.js';
import { runCli } from './helpers/runCli.js';

const catalog = loadEventCatalog();

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tariffs-events-load-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function withWarehouse<T>(name: string, fn: (w: Warehouse) => Promise<T>): Promise<T> {
  const warehouse = await Warehouse.open(join(dir, name));
  try {
    return await fn(warehouse);
  } finally {
    warehouse.close();
  }
}

const load = (w: Warehouse, text: string, options: Partial<LoadEventsOptions> = {}) =>
  loadEvents(w, Readable.from([Buffer.from(text)]), { source: 'test.jsonl', now: () => new Date('2025-01-01T00:00:00Z'), ...options });

type Path = (string | number)[];

/** The first required field inside a structure (through arrays, at index 1), as a path. */
function nestedRequired(fields: readonly FieldSpec[], prefix: Path = []): Path | undefined {
  for (const field of fields) {
    const struct = structOf(field.type);
    if (!struct) continue;
    const at: Path = [...prefix, field.name, ...(field.type.kind === 'array' ? [1] : [])];
    const inner = struct.fields.find((f) => f.required);
    if (inner) return [...at, inner.name];
    const deeper = nestedRequired(struct.fields, at);
    if (deeper) return deeper;
  }
  return undefined;
}

function without(payload: Record<string, unknown>, path: Path): Record<string, unknown> {
  const copy = structuredClone(payload);
  let parent: any = copy;
  for (const key of path.slice(0, -1)) parent = parent[key];
  delete parent[path.at(-1)!];
  return copy;
}

// Several ids of both catalogs, with structures, arrays of structures and a 1.0.0 version.
const IDS = [
  'account_user.psr_records_updated-v1',
  'agreement.rollover.completed-v1',
  'lifecycle.join-supplier.agreement.created-v1',
  'agreement.revoked-v2',
  'lifecycle.support-site.sale-1.0.0',
];

interface Expected {
  text: string;
  summary: LoadSummary;
  /** Stored rows, in line order. */
  events: { id: string; event_id: string; line: number; payload: unknown }[];
  rejects: { line: number; raw: string; errors: Omit<LoadError, 'line'>[] }[];
}

/** A file and what loading it must do, worked out here from the catalog. */
function buildFile(): Expected {
  const lines: string[] = [];
  const push = (text: string) => lines.push(text); // returns the 1-based line number
  const expected: Expected = { text: '', summary: { accepted: 0, duplicates: 0, rejected: 0, errors: [] }, events: [], rejects: [] };
  const accept = (id: string, eventId: string, event: ReturnType<typeof sampleEvent>) => {
    const line = push(JSON.stringify(event));
    expected.events.push({ id, event_id: eventId, line, payload: event.payload });
    expected.summary.accepted++;
  };
  const reject = (text: string, errors: Omit<LoadError, 'line'>[]) => {
    const line = push(text);
    expected.rejects.push({ line, raw: text, errors });
    expected.summary.rejected++;
    expected.summary.errors.push(...errors.map((e) => ({ line, ...e })));
  };
  for (const eventId of IDS) {
    const spec = catalog.events.get(eventId)!;
    for (let k = 0; k < 3; k++) {
      const id = `${eventId}#${k}`;
      accept(id, eventId, sampleEvent(spec, { id, occurred_at: `2024-10-27T0${k}:30:00+01:00` }));
    }
    const path = nestedRequired(spec.fields);
    if (path) {
      const event = sampleEvent(spec, { id: `${eventId}#bad` });
      const attr = path.join('.');
      reject(JSON.stringify({ ...event, payload: without(event.payload, path) }), [
        { code: 'required', attr, scope: 'payload', detail: expect.any(String) as unknown as string },
      ]);
    }
  }
  push(''); // blank: skipped, but counted in line numbers
  reject('{"id": "broken", "event_type": "agreement.revoked"', [
    { code: 'invalid_json', attr: null, scope: 'line', detail: expect.any(String) as unknown as string },
  ]);
  reject(JSON.stringify({ id: 'v9', event_type: 'agreement.revoked', payload_version: 'v9', payload: { agreement_id: 1 } }), [
    { code: 'unknown_payload_version', attr: 'payload_version', scope: 'envelope', detail: expect.any(String) as unknown as string },
  ]);
  // The same ids again, with other payloads: duplicates of the lines above (the first line wins).
  for (const eventId of IDS.slice(0, 2)) {
    const spec = catalog.events.get(eventId)!;
    push(JSON.stringify({ ...sampleEvent(spec, { id: `${eventId}#0` }), payload: { ...sampleEvent(spec).payload, later: true } }));
    expected.summary.duplicates++;
  }
  // A duplicate inside one batch: the next line repeats the id of this one.
  const spec = catalog.events.get('agreement.revoked-v2')!;
  accept('twice', 'agreement.revoked-v2', sampleEvent(spec, { id: 'twice' }));
  push(JSON.stringify(sampleEvent(spec, { id: 'twice' })));
  expected.summary.duplicates++;
  expected.text = `${lines.join('\n')}\n`;
  return expected;
}

const file = buildFile();

describe('loadEvents', () => {
  it('builds a file that exercises what it should (guards the builder)', () => {
    expect(file.events).toHaveLength(16);
    expect(file.rejects.map((r) => r.errors[0]!.attr)).toEqual([
      'created_records.1.description',
      'new_product.code',
      'supply_point.external_identifier',
      null,
      'payload_version',
    ]);
  });

  it('stores valid events, skips duplicates, and stores rejected lines with their errors', async () => {
    await withWarehouse('load.duckdb', async (w) => {
      const result = await load(w, file.text, { batchSize: 5 });
      expect(result.summary).toEqual(file.summary);
      expect(result.interrupted).toBe(false);

      const events = await w.all(`SELECT id, event_id, line, CAST(payload AS VARCHAR) AS payload, source, loaded_at,
                                         event_type || '-' || payload_version AS typed
                                  FROM events ORDER BY line`);
      expect(events.map((e) => ({ id: e.id, event_id: e.event_id, line: e.line, payload: JSON.parse(e.payload as string) }))).toEqual(
        file.events,
      );
      expect(events.every((e) => e.typed === e.event_id && e.source === 'test.jsonl' && e.loaded_at === '2025-01-01T00:00:00Z')).toBe(true);
      const occurred = await w.one(`SELECT occurred_at FROM events WHERE id = 'agreement.revoked-v2#1'`);
      expect(occurred?.occurred_at).toBe('2024-10-27T00:30:00Z'); // 01:30+01:00, stored as the instant

      const rejects = await w.all('SELECT line, raw, CAST(errors AS VARCHAR) AS errors, source FROM event_rejects ORDER BY line');
      expect(rejects.map((r) => ({ line: r.line, raw: r.raw, errors: JSON.parse(r.errors as string) }))).toEqual(file.rejects);
      expect(new Set(rejects.map((r) => r.source))).toEqual(new Set(['test.jsonl']));
    });
  });

  it('re-loading the same file stores nothing new: every event a duplicate, rejects not repeated', async () => {
    await withWarehouse('load.duckdb', async (w) => {
      const again = await load(w, file.text, { batchSize: 4 });
      expect(again.summary).toEqual({
        ...file.summary,
        accepted: 0,
        duplicates: file.summary.accepted + file.summary.duplicates,
      });
      expect((await w.one('SELECT count(*) AS n FROM events'))?.n).toBe(file.events.length);
      expect((await w.one('SELECT count(*) AS n FROM event_rejects'))?.n).toBe(file.rejects.length);
    });
  });

  it('data test: no id is stored twice (zero rows)', async () => {
    await withWarehouse('load.duckdb', async (w) => {
      expect(await w.all('SELECT id FROM events WHERE id IS NOT NULL GROUP BY id HAVING count(*) > 1')).toEqual([]);
      expect(await w.all('SELECT source, line FROM event_rejects GROUP BY source, line, raw HAVING count(*) > 1')).toEqual([]);
    });
  });

  it('never treats events without an id as duplicates', async () => {
    const line = JSON.stringify(sampleEvent(catalog.events.get('agreement.revoked-v1')!));
    await withWarehouse('no-ids.duckdb', async (w) => {
      expect((await load(w, `${line}\n${line}\n`)).summary).toMatchObject({ accepted: 2, duplicates: 0 });
      expect((await load(w, `${line}\n`)).summary).toMatchObject({ accepted: 1, duplicates: 0 });
      expect((await w.one('SELECT count(*) AS n, count(id) AS ids FROM events'))).toEqual({ n: 3, ids: 0 });
    });
  });

  it('lists one entry per error, capped, and says how many there were', async () => {
    // user_id mistyped and a nested field missing: two errors on one line.
    const spec = catalog.events.get('account_user.psr_records_updated-v1')!;
    const event = sampleEvent(spec);
    const two = JSON.stringify({ ...event, payload: { ...without(event.payload, ['created_records', 0, 'description']), user_id: 'x' } });
    await withWarehouse('cap.duckdb', async (w) => {
      const { summary } = await load(w, `${two}\nnot json\n${two}\n`, { maxErrors: 3 });
      expect(summary.rejected).toBe(3);
      expect(summary.errors.map((e) => [e.line, e.code, e.attr])).toEqual([
        [1, 'invalid_type', 'user_id'],
        [1, 'required', 'created_records.0.description'],
        [2, 'invalid_json', null],
      ]);
      expect(summary).toMatchObject({ errors_truncated: true, errors_total: 5 });
      const stored = await w.one(`SELECT CAST(errors AS VARCHAR) AS errors FROM event_rejects WHERE line = 3`);
      expect(JSON.parse(stored!.errors as string)).toHaveLength(2); // the table keeps them all
    });
    await withWarehouse('cap.duckdb', async (w) => {
      const { summary } = await load(w, 'not json\n');
      expect(summary).not.toHaveProperty('errors_truncated');
    });
  });

  it('logs progress every N lines', async () => {
    const logs: { msg: string; lines: number }[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        logs.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const line = JSON.stringify(sampleEvent(catalog.events.get('agreement.revoked-v1')!));
    await withWarehouse('progress.duckdb', async (w) => {
      await load(w, `${line}\n`.repeat(25), { logger: createLogger({ destination }), progressEvery: 10, batchSize: 7 });
    });
    expect(logs.filter((l) => l.msg === 'loading events').map((l) => l.lines)).toEqual([10, 20]);
    expect(logs.at(-1)).toMatchObject({ msg: 'events loaded', lines: 25, accepted: 25 });
  });

  it('stores the lines read before the input fails, then reports the failure', async () => {
    const spec = catalog.events.get('agreement.revoked-v1')!;
    async function* failing() {
      for (let i = 0; i < 12; i++) yield `${JSON.stringify(sampleEvent(spec, { id: `r${i}` }))}\n`;
      throw new Error('connection reset');
    }
    await withWarehouse('failing.duckdb', async (w) => {
      const error = await loadEvents(w, failing(), { source: 'stdin', batchSize: 5 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EventInputError);
      expect((error as Error).message).toBe('stdin: cannot read events after line 12: connection reset');
      expect((await w.one('SELECT count(*) AS n FROM events'))?.n).toBe(12);
    });
  });

  it('stops at an abort, keeping what was read', async () => {
    const line = JSON.stringify(sampleEvent(catalog.events.get('agreement.revoked-v1')!));
    const controller = new AbortController();
    async function* lines() {
      for (let i = 1; i <= 100; i++) {
        if (i === 31) controller.abort();
        yield `${line}\n`;
      }
    }
    await withWarehouse('abort.duckdb', async (w) => {
      const result = await loadEvents(w, lines(), { source: 'x', signal: controller.signal, batchSize: 10 });
      expect(result).toMatchObject({ interrupted: true, lines: 31, summary: { accepted: 31 } });
      expect((await w.one('SELECT count(*) AS n FROM events'))?.n).toBe(31);
    });
  });
});

describe('tariffs events load (built CLI)', () => {
  const clean = `${file.events.map((e) => JSON.stringify({ id: e.id, ...sampleEvent(catalog.events.get(e.event_id)!) })).join('\n')}\n`;

  it('prints the JSON summary and exits 1 when lines were rejected', async () => {
    const path = join(dir, 'mixed.jsonl');
    await writeFile(path, file.text);
    const db = join(dir, 'cli.duckdb');
    const result = await runCli(['events', 'load', path, '--db', db, '--format', 'json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    const summary = JSON.parse(result.stdout) as LoadSummary;
    expect(Object.keys(summary)).toEqual(['accepted', 'duplicates', 'rejected', 'errors']);
    expect(summary).toEqual(file.summary);

    const sources = await runCli(['sql', 'SELECT DISTINCT source FROM events UNION SELECT DISTINCT source FROM event_rejects', '--db', db]);
    expect(JSON.parse(sources.stdout)).toEqual([{ source: path }]);
  });

  it('exits 0 when nothing was rejected, and again (all duplicates) on a re-load', async () => {
    const path = join(dir, 'clean.jsonl');
    await writeFile(path, clean);
    const db = join(dir, 'clean.duckdb');
    const first = await runCli(['events', 'load', path, '--db', db, '--format', 'json']);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ accepted: 16, duplicates: 0, rejected: 0, errors: [] });
    const second = await runCli(['events', 'load', path, '--db', db, '--format', 'json']);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual({ accepted: 0, duplicates: 16, rejected: 0, errors: [] });
  });

  it("reads stdin for '-', with source 'stdin'", async () => {
    const db = join(dir, 'stdin.duckdb');
    const ok = await runCli(['events', 'load', '-', '--db', db, '--format', 'json'], { input: clean });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ accepted: 16, rejected: 0 });
    const bad = await runCli(['events', 'load', '-', '--db', db, '--format', 'json'], { input: `${clean}{oops\n` });
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toEqual({
      accepted: 0,
      duplicates: 16,
      rejected: 1,
      errors: [{ line: 17, code: 'invalid_json', attr: null, scope: 'line', detail: expect.stringContaining('not JSON') }],
    });
    const sources = await runCli(['sql', 'SELECT DISTINCT source FROM events UNION SELECT DISTINCT source FROM event_rejects', '--db', db]);
    expect(JSON.parse(sources.stdout)).toEqual([{ source: 'stdin' }]);
  });

  it('prints a table: the counts, then the errors', async () => {
    const db = join(dir, 'table.duckdb');
    const result = await runCli(['events', 'load', '-', '--db', db, '--format', 'table'], { input: '\n{"event_type": 5}\n' });
    expect(result.code).toBe(1);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^accepted +duplicates +rejected$/);
    expect(lines[2]).toMatch(/^ +0 +0 +1$/);
    expect(lines).toContainEqual(expect.stringMatching(/^line +code +attr +scope +detail$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ +2 +invalid_type +event_type +envelope +expected string, got number$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ +2 +required +payload_version +envelope /));
  });

  it('refuses a missing file as a usage error (exit 2) naming it, before creating a database', async () => {
    const db = join(dir, 'never.duckdb');
    const result = await runCli(['events', 'load', join(dir, 'missing.jsonl'), '--db', db]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`tariffs: events file not found: ${join(dir, 'missing.jsonl')}`);
    expect(result.stdout).toBe('');
    expect(existsSync(db)).toBe(false);
  });

  it('refuses --format csv and a bad --batch-size (exit 2)', async () => {
    const csv = await runCli(['events', 'load', '-', '--db', join(dir, 'x.duckdb'), '--format', 'csv']);
    expect(csv.code).toBe(2);
    expect(csv.stderr).toContain("--format: 'csv' is not one of table, json");
    const batch = await runCli(['events', 'load', '-', '--db', join(dir, 'x.duckdb'), '--batch-size', '0']);
    expect(batch.code).toBe(2);
    expect(batch.stderr).toContain('--batch-size must be a positive integer');
  });

  it('exits 75 after --busy-timeout while another tariffs job writes the database, storing nothing', async () => {
    const db = join(dir, 'busy.duckdb');
    const release = await holdWriteLock(db);
    try {
      const result = await runCli(['events', 'load', '-', '--db', db, '--busy-timeout', '1'], { input: clean });
      expect(result.code).toBe(75);
      expect(result.stderr).toMatch(/busy\.duckdb is being written by process \d+ \(another tariffs job\); waited 1 s/);
    } finally {
      release();
    }
    expect(existsSync(db)).toBe(false); // nothing published
    const loaded = await runCli(['events', 'load', '-', '--db', db], { input: clean });
    expect(loaded.code).toBe(0);
  });
});

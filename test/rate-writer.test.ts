// The writer commits by the pace of fetching, as its clock tells it (a fake clock here, moved by the
// test: nothing depends on how fast this machine is). Rates that come faster than a row group
// gathers are committed in whole row groups (straight into the file), with no checkpoint between
// commits; pages that come slowly are committed as they come (a few at a time) and checkpointed
// between commits, so that the run's final CHECKPOINT has only the last ones to write. Real prices:
// regions A and J's Agile pages as the sandbox serves them, written into a real DuckDB file.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OctopusClient } from '../src/api/OctopusClient.js';
import { silentLogger } from '../src/log/createLogger.js';
import { ROW_GROUP_ROWS, RateWriter, type WriterChunk } from '../src/ingest/RateWriter.js';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { RateColumns } from '../src/rates/RateColumns.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { prepareStaging } from '../src/store/writeRates.js';
import { FakeClock } from './helpers/fakeClock.js';
import { tempDir } from './helpers/warehouseTools.js';

const A = 'E-1R-AGILE-18-02-21-A';
const J = 'E-1R-AGILE-18-02-21-J';
const PRODUCT = 'AGILE-18-02-21';

let sandbox: Sandbox;
const tmp = tempDir('tariffs-rate-writer-');
/** Each tariff's pages as the client reads them, oldest first. */
const pagesOf = new Map<string, RateColumns[]>();

beforeAll(async () => {
  sandbox = await startSandbox();
  const client = new OctopusClient({ baseUrl: sandbox.baseUrl });
  for (const tariff of [A, J]) {
    const pages: RateColumns[] = [];
    for await (const page of client.electricityRates(PRODUCT, tariff, 'standard-unit-rates', { from: new Date('2018-01-01T00:00:00Z') })) {
      pages.push(RateColumns.of(page.records));
    }
    pagesOf.set(tariff, pages.reverse());
  }
  await client.http.close();
});
afterAll(async () => {
  await sandbox.close();
  tmp.remove();
});

/** A writer into a new file on a fake clock. It records, in order, each commit (the rates it
 *  inserted, the chunks it wrote) and each CHECKPOINT; `settled()` resolves once the writer has
 *  no statement under way (it then waits for rates or for its clock). */
async function writerInto(name: string) {
  const warehouse = await Warehouse.open(tmp.file(name), { threads: 1, keepRowGroups: true });
  await prepareStaging(warehouse);
  const clock = new FakeClock();
  const events: ({ commit: number; rows: number; chunks: WriterChunk[] } | { checkpoint: number })[] = [];
  let commits = 0;
  let checkpoints = 0;
  let busy = 0;
  const transaction = warehouse.transaction.bind(warehouse);
  vi.spyOn(warehouse, 'transaction').mockImplementation(async (fn) => {
    busy++;
    const commit = { commit: ++commits, rows: 0, chunks: [] };
    events.push(commit);
    try {
      return await transaction(fn);
    } finally {
      busy--;
    }
  });
  const checkpoint = warehouse.checkpoint.bind(warehouse);
  vi.spyOn(warehouse, 'checkpoint').mockImplementation(async () => {
    busy++;
    events.push({ checkpoint: ++checkpoints });
    try {
      await checkpoint();
    } finally {
      busy--;
    }
  });
  const failures: unknown[] = [];
  const lastCommit = () => events.filter((e) => 'commit' in e).at(-1) as { rows: number; chunks: WriterChunk[] };
  const writer = new RateWriter<WriterChunk>({
    warehouse, logger: silentLogger(), runId: 1, clock, writable: () => true,
    written: (chunk, counts) => {
      lastCommit().rows += counts.inserted;
      lastCommit().chunks.push(chunk);
    },
    failed: (_chunk, error) => failures.push(error),
  });
  const settled = async () => {
    for (let quiet = 0; quiet < 2;) {
      await new Promise((resolve) => setImmediate(resolve));
      quiet = busy === 0 ? quiet + 1 : 0;
    }
  };
  return { warehouse, clock, events, failures, writer, settled };
}

function chunkOf(tariffCode: string, rates: RateColumns, urgent = false): WriterChunk {
  const range = rates.startRange()!;
  return { target: { tariffCode }, kind: 'standard', from: new Date(range.earliest), to: new Date(rates.endOfLatest(range.earliest)), urgent };
}

/** The rows stored per tariff, each valid_from once. */
async function stored(warehouse: Warehouse) {
  return warehouse.all(`SELECT tariff_code AS t, count(*) AS n, count(DISTINCT valid_from) AS d FROM unit_rates GROUP BY 1 ORDER BY 1`);
}

describe('RateWriter', () => {
  it('pages that come slowly are committed as they come, with a checkpoint between commits', async () => {
    const { warehouse, clock, events, failures, writer, settled } = await writerInto('slow.duckdb');
    try {
      const pages = pagesOf.get(J)!.slice(0, 36);
      const chunks = pages.map((rates) => chunkOf(J, rates));
      for (const [i, rates] of pages.entries()) {
        if (i > 0) clock.advance(30); // a page every 30 ms: 50 rates a ms, far below a row group in 500 ms
        await settled();
        writer.write(chunks[i]!, rates);
        await settled();
      }
      const beforeEnd = [...events];
      writer.finish();
      await writer.drained();
      expect(failures).toEqual([]);
      // Until the pace is known (the first 250 ms), rates wait for a row group; then the pages of
      // those 270 ms are committed, and from then on what came in 100 ms (4 pages), each commit followed by a
      // checkpoint; the last pages are committed at the end, with no checkpoint of the writer's.
      const commitsBeforeEnd = beforeEnd.filter((e) => 'commit' in e);
      expect(commitsBeforeEnd.map((e) => ('commit' in e ? e.chunks.length : 0))).toEqual([10, 4, 4, 4, 4, 4, 4]);
      expect(beforeEnd.map((e) => ('commit' in e ? 'commit' : 'checkpoint'))).toEqual(commitsBeforeEnd.flatMap(() => ['commit', 'checkpoint']));
      expect(events.slice(beforeEnd.length).map((e) => ('commit' in e ? 'commit' : 'checkpoint'))).toEqual(['commit']);
      // every chunk written once, in order
      expect(events.flatMap((e) => ('commit' in e ? e.chunks : []))).toEqual(chunks);
      const total = pages.reduce((n, p) => n + p.length, 0);
      expect(await stored(warehouse)).toEqual([{ t: J, n: total, d: total }]);
    } finally {
      warehouse.close();
    }
  });

  it('the first chunk of a backfill is committed at once, alone; later ones gather', async () => {
    const { warehouse, events, failures, writer, settled } = await writerInto('first.duckdb');
    try {
      const [first, second, third] = pagesOf.get(J)!;
      writer.write(chunkOf(J, first!, true), first!);
      await settled();
      expect(events.map((e) => ('commit' in e ? e.rows : 'checkpoint'))).toEqual([first!.length]);
      // after the first commit nothing is hurried: pages wait for the clock (which stands still here)
      writer.write(chunkOf(J, second!, true), second!);
      writer.write(chunkOf(J, third!), third!);
      await settled();
      expect(events).toHaveLength(1);
      writer.finish();
      await writer.drained();
      expect(failures).toEqual([]);
      expect(events.map((e) => ('commit' in e ? e.rows : 'checkpoint'))).toEqual([first!.length, second!.length + third!.length]);
    } finally {
      warehouse.close();
    }
  });

  it('rates that come faster than a row group gathers are committed in whole row groups, with no checkpoint between', async () => {
    const { warehouse, events, failures, writer, settled } = await writerInto('fast.duckdb');
    try {
      let chunks = 0;
      for (const tariff of [A, J]) {
        for (const rates of pagesOf.get(tariff)!) {
          writer.write(chunkOf(tariff, rates), rates);
          chunks++;
        }
      }
      const total = [A, J].reduce((n, t) => n + pagesOf.get(t)!.reduce((m, p) => m + p.length, 0), 0);
      expect(total).toBeGreaterThan(ROW_GROUP_ROWS);
      expect(total).toBeLessThan(2 * ROW_GROUP_ROWS);
      // the first row group is written while the rest are still "coming" (no time passes: they
      // wait for more); then the run ends and the rest is written
      await settled();
      expect(events.map((e) => ('commit' in e ? e.rows : 'checkpoint'))).toEqual([ROW_GROUP_ROWS]);
      writer.finish();
      await writer.drained();
      expect(failures).toEqual([]);
      expect(events.map((e) => ('commit' in e ? e.rows : 'checkpoint'))).toEqual([ROW_GROUP_ROWS, total - ROW_GROUP_ROWS]);
      expect(new Set(events.flatMap((e) => ('commit' in e ? e.chunks : []))).size).toBe(chunks);
      const rows = await stored(warehouse);
      expect(rows.map((r) => r.n)).toEqual(rows.map((r) => r.d));
      expect(rows.reduce((n, r) => n + Number(r.n), 0)).toBe(total);
    } finally {
      warehouse.close();
    }
  });
});

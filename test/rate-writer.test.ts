// The writer commits by the pace of fetching. Rates that come faster than a row group gathers are
// committed in whole row groups (straight into the file), with no checkpoint between commits;
// pages that come slowly are committed as they come (a few at a time) and checkpointed between
// commits, so that the run's final CHECKPOINT has only the last ones to write. Real prices:
// regions A and J's Agile pages as the sandbox serves them, written into a real DuckDB file.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OctopusClient } from '../src/api/OctopusClient.js';
import { silentLogger } from '../src/log/createLogger.js';
import { ROW_GROUP_ROWS, RateWriter, type WriterChunk } from '../src/ingest/RateWriter.js';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { RateColumns } from '../src/rates/RateColumns.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { prepareStaging } from '../src/store/writeRates.js';
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

/** A writer into a new file, with a spy on its warehouse's CHECKPOINTs and the time each chunk was written. */
async function writerInto(name: string) {
  const warehouse = await Warehouse.open(tmp.file(name), { threads: 1, keepRowGroups: true });
  await prepareStaging(warehouse);
  const checkpoint = vi.spyOn(warehouse, 'checkpoint');
  const transaction = vi.spyOn(warehouse, 'transaction');
  const written = new Map<WriterChunk, number>();
  const failures: unknown[] = [];
  const writer = new RateWriter<WriterChunk>({
    warehouse, logger: silentLogger(), runId: 1, writable: () => true,
    written: (chunk) => written.set(chunk, performance.now()),
    failed: (_chunk, error) => failures.push(error),
  });
  return { warehouse, checkpoint, transaction, written, failures, writer };
}

function chunkOf(tariffCode: string, rates: RateColumns): WriterChunk {
  const range = rates.startRange()!;
  return { target: { tariffCode }, kind: 'standard', from: new Date(range.earliest), to: new Date(rates.endOfLatest(range.earliest)), urgent: false };
}

/** The rows stored per tariff, each valid_from once, and the rows each row group holds. */
async function stored(warehouse: Warehouse) {
  const rows = await warehouse.all(`SELECT tariff_code AS t, count(*) AS n, count(DISTINCT valid_from) AS d FROM unit_rates GROUP BY 1 ORDER BY 1`);
  const groups = await warehouse.all(`SELECT row_group_id AS g, sum(count) AS n FROM pragma_storage_info('unit_rates')
    WHERE column_path = '[0]' GROUP BY ALL ORDER BY g`);
  return { rows, groups: groups.map((g) => Number(g.n)) };
}

describe('RateWriter', () => {
  it('pages that come slowly are committed as they come, with a checkpoint between commits', async () => {
    const { warehouse, checkpoint, transaction, written, failures, writer } = await writerInto('slow.duckdb');
    try {
      const pages = pagesOf.get(J)!.slice(0, 36);
      const queued = new Map<WriterChunk, number>();
      for (const rates of pages) {
        const chunk = chunkOf(J, rates);
        queued.set(chunk, performance.now());
        writer.write(chunk, rates);
        await new Promise((resolve) => setTimeout(resolve, 30)); // a page every 30 ms: 50 rates a ms
      }
      const checkpointsBeforeEnd = checkpoint.mock.calls.length;
      const commitsBeforeEnd = transaction.mock.calls.length;
      const writtenBeforeEnd = written.size;
      writer.finish();
      await writer.drained();
      expect(failures).toEqual([]);
      // committed as they came, not all at the end, and what they put in the WAL went into the
      // file meanwhile. How many commits fit in the 1.1 s depends on the timers (a commit every
      // 100 ms or so when idle, fewer on a loaded machine: 5+ here alone, fewer in a busy CI), so
      // only that it happened is asserted; the pace is the bench's to measure.
      expect(commitsBeforeEnd).toBeGreaterThanOrEqual(1);
      expect(writtenBeforeEnd).toBeGreaterThanOrEqual(1);
      expect(checkpointsBeforeEnd).toBeGreaterThanOrEqual(1);
      expect([...queued.keys()].every((chunk) => written.has(chunk))).toBe(true);
      const total = pages.reduce((n, p) => n + p.length, 0);
      expect((await stored(warehouse)).rows).toEqual([{ t: J, n: total, d: total }]);
    } finally {
      warehouse.close();
    }
  });

  it('rates that come faster than a row group gathers are committed in whole row groups, with no checkpoint between', async () => {
    const { warehouse, checkpoint, written, failures, writer } = await writerInto('fast.duckdb');
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
      // the first group is written while the rest are still "coming"; then the run ends
      await vi.waitFor(() => expect(written.size).toBeGreaterThan(0), { timeout: 20_000, interval: 5 });
      writer.finish();
      await writer.drained();
      expect(failures).toEqual([]);
      expect(written.size).toBe(chunks);
      expect(checkpoint).not.toHaveBeenCalled();
      const { rows, groups } = await stored(warehouse);
      expect(rows.map((r) => r.n)).toEqual(rows.map((r) => r.d));
      expect(rows.reduce((n, r) => n + Number(r.n), 0)).toBe(total);
      expect(groups).toEqual([ROW_GROUP_ROWS, total - ROW_GROUP_ROWS]);
    } finally {
      warehouse.close();
    }
  });
});

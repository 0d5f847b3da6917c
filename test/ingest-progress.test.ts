// No good work thrown away: a tariff failing in chunk k keeps chunks 0…k−1 (in order, with its
// cursor) and stops fetching at once; the oldest chunk of a backfill is committed after two
// requests, so a run that is always cut short still completes the backfill over a few runs.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CHUNK_SLOTS, FIRST_CHUNK_SLOTS } from '../src/ingest/ingestRates.js';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { jobPaths } from '../src/store/WriteSession.js';
import { HALF_HOUR_MS } from '../src/time/index.js';
import { CLI } from './helpers/runCli.js';
import { ingest, query, tempDir } from './helpers/warehouseTools.js';

const J = 'E-1R-AGILE-18-02-21-J';
const FROM = new Date('2020-01-01T00:00:00Z');

let sandbox: Sandbox;
const tmp = tempDir('tariffs-progress-');
const clean = tmp.file('clean.duckdb');

beforeAll(async () => {
  sandbox = await startSandbox();
  await ingest(clean, sandbox.baseUrl, { tariffs: [J], from: FROM, noProducts: true });
});
afterAll(async () => {
  await sandbox.close();
  tmp.remove();
});

/** The start of chunk `index` of a backfill from `from` (the oldest chunk is one page). */
function chunkStart(from: Date, index: number): Date {
  if (index === 0) return from;
  return new Date(from.getTime() + (FIRST_CHUNK_SLOTS + (index - 1) * DEFAULT_CHUNK_SLOTS) * HALF_HOUR_MS);
}

/** A datetime as the client puts it in a query string: `2020-08-06T18%3A00%3A00Z`. */
function inQuery(date: Date): string {
  return encodeURIComponent(date.toISOString().replace('.000Z', 'Z'));
}

/** unit_rates of J (every column but run_id), as text, for comparing two files. */
async function rowsOf(db: string, before?: Date): Promise<{ n: number; first: string; last: string; digest: string }> {
  const where = before ? `AND valid_from < TIMESTAMPTZ '${before.toISOString()}'` : '';
  const [row] = await query(db, `SELECT count(*) AS n, min(valid_from) AS first, max(valid_from) AS last,
      md5(string_agg(concat_ws('|', valid_from, valid_to, value_exc_vat, value_inc_vat, local_date, settlement_period), ','
          ORDER BY valid_from)) AS digest
    FROM unit_rates WHERE tariff_code = '${J}' ${where}`);
  return row as { n: number; first: string; last: string; digest: string };
}

describe('a tariff failing in chunk k', () => {
  it('keeps chunks 0…k−1 with their cursor, stops fetching that tariff at once, and a re-run completes it', async () => {
    const k = 3;
    const boundary = chunkStart(FROM, k);
    const db = tmp.file('fails-in-chunk.duckdb');
    // chunk k's first page (its URL starts at the chunk's period_from) has an invalid record
    const fault = `invalid-record:path=-J/standard-unit-rates/?period_from=${inQuery(boundary)},index=3`;
    sandbox.resetRequests();
    sandbox.setLatency(20);
    sandbox.setFaults([fault]);
    let summary;
    try {
      summary = await ingest(db, sandbox.baseUrl, { tariffs: [J], from: FROM, noProducts: true });
    } finally {
      sandbox.setFaults([]);
      sandbox.setLatency(0);
    }
    expect(summary.status).toBe('partial');
    expect(summary.tariffs_failed).toBe(1);
    expect(summary.errors.join()).toMatch(/record 3: field 'value_inc_vat'/);
    expect(summary.errors.join()).toContain(`period_from=${inQuery(boundary)}`);

    // exactly what lies before chunk k is stored, equal to a clean run's rows there
    const kept = await rowsOf(db);
    const expected = await rowsOf(clean, boundary);
    expect(expected.n).toBeGreaterThan(10_000); // chunks 0…k−1 hold real data
    expect(kept).toEqual(expected);
    const [cursor] = await query(db, `SELECT fetched_from, fetched_until FROM ingest_cursors WHERE tariff_code = '${J}' AND rate_kind = 'standard'`);
    expect(cursor).toEqual({ fetched_from: FROM.toISOString().replace('.000Z', 'Z'), fetched_until: boundary.toISOString().replace('.000Z', 'Z') });

    // once the bad page was answered, no new page of J was asked for beyond those already on their way
    const ratesOfJ = sandbox.requests.filter((r) => r.path.includes(`/${J}/standard-unit-rates/`));
    const failedAt = ratesOfJ.findIndex((r) => r.path.includes(`period_from=${inQuery(boundary)}`));
    expect(failedAt).toBeGreaterThan(0);
    const fullRun = 1 + Math.ceil((await rowsOf(clean)).n / 1500) + 6; // probe + pages, with slack
    expect(ratesOfJ.length).toBeLessThan(fullRun);
    // chunks before k go on to their end (they are kept); of chunks k and after, at most the
    // requests already sent by the other workers (3) arrive after the failing one
    const periodFrom = (path: string) => Date.parse(decodeURIComponent(/period_from=([^&]+)/.exec(path)![1]!));
    const laterChunks = ratesOfJ.slice(failedAt + 1).filter((r) => periodFrom(r.path) >= boundary.getTime());
    expect(laterChunks.length).toBeLessThanOrEqual(3);

    // a re-run without the fault continues from the cursor and ends equal to one clean run
    const rerun = await ingest(db, sandbox.baseUrl, { tariffs: [J], noProducts: true });
    expect(rerun.status).toBe('ok');
    expect(await rowsOf(db)).toEqual(await rowsOf(clean));
  });
});

/** `tariffs ingest` (incremental: from the cursor, or default_from) killed with SIGKILL `afterMs`
 *  after its first commit; resolves with how it ended and J's rate requests before that commit. */
function runKilledAfterFirstCommit(db: string, config: string, afterMs: number): Promise<{ code: number | null; killed: boolean; requestsBeforeCommit?: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'ingest', '--tariff', J, '--no-products', '--db', db,
      '--base-url', sandbox.baseUrl, '--config', config, '--format', 'json'], { env: { ...process.env, TARIFFS_LOG_LEVEL: 'debug' } });
    let stderr = '';
    let requestsBeforeCommit: number | undefined;
    let timer: NodeJS.Timeout | undefined;
    child.stdout.resume();
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      // the first commit of unit rates (standing charges, one small page, may come before)
      if (requestsBeforeCommit === undefined && /"kinds":\["standard"\],"msg":"batches written"/.test(stderr)) {
        requestsBeforeCommit = sandbox.requests.filter((r) => r.path.includes(`/${J}/standard-unit-rates/`)).length;
        timer = setTimeout(() => child.kill('SIGKILL'), afterMs);
      }
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, killed: signal === 'SIGKILL', requestsBeforeCommit });
    });
  });
}

describe('a run that is always cut short', () => {
  it('killed 1 s after its first chunk commit, again and again, completes a backfill in a bounded number of runs', async () => {
    const db = tmp.file('cut-short.duckdb');
    const config = tmp.file('cut-short.json');
    const from = '2021-01-01';
    writeFileSync(config, JSON.stringify({ default_from: from }));
    const expectedRows = (await query(clean, `SELECT count(*) AS n FROM unit_rates WHERE tariff_code = '${J}' AND valid_from >= '${from}'`))[0]!.n as number;
    const pages = Math.ceil(expectedRows / 1500);
    const MAX_RUNS = 8; // 39 pages: one page, six chunks of 6 pages and a rest; each run commits at least one
    const stored: number[] = [];
    let completed = false;
    sandbox.setLatency(150); // a page every 150 ms per worker: a chunk of 6 pages takes about a second
    try {
      for (let run = 1; run <= MAX_RUNS && !completed; run++) {
        sandbox.resetRequests();
        const result = await runKilledAfterFirstCommit(db, config, 1_000);
        // the first commit comes after two rounds of requests (the probe, then the one-page oldest
        // chunk while the 3 other workers start theirs: ~9 by the time the log line is read), not
        // after a chunk of 6 pages (1 + 6 rounds of 4 = 25)
        if (result.requestsBeforeCommit !== undefined) expect(result.requestsBeforeCommit).toBeLessThanOrEqual(14);
        if (!result.killed) expect(result.code).toBe(0);
        // what the job has stored: its working file (a killed run's commits reach --db when the next run starts)
        stored.push((await query(jobPaths(db).work, `SELECT count(*) AS n FROM unit_rates WHERE tariff_code = '${J}'`))[0]!.n as number);
        completed = stored.at(-1) === expectedRows;
        console.log(`run ${run}: ${result.killed ? 'killed' : `exit ${result.code}`}, ${result.requestsBeforeCommit} requests before the first commit, ${stored.at(-1)} rates stored`);
      }
    } finally {
      sandbox.setLatency(0);
    }
    expect(pages).toBeGreaterThan(30);
    expect(completed).toBe(true);
    // every killed run moved the cursor, until all was stored (a run may be killed after its
    // last commit, while it records itself and closes)
    const total = stored.at(-1)!;
    expect(stored[0]!).toBeGreaterThan(0);
    for (let i = 1; i < stored.length; i++) {
      if (stored[i - 1]! < total) expect(stored[i]!).toBeGreaterThan(stored[i - 1]!);
    }
    // and the result is the clean one
    const since = new Date(`${from}T00:00:00Z`);
    const expected = await query(clean, `SELECT count(*) AS n, md5(string_agg(concat_ws('|', valid_from, value_inc_vat), ',' ORDER BY valid_from)) AS d
      FROM unit_rates WHERE tariff_code = '${J}' AND valid_from >= TIMESTAMPTZ '${since.toISOString()}'`);
    const got = await query(db, `SELECT count(*) AS n, md5(string_agg(concat_ws('|', valid_from, value_inc_vat), ',' ORDER BY valid_from)) AS d
      FROM unit_rates WHERE tariff_code = '${J}'`);
    expect(got).toEqual(expected);
  });
});

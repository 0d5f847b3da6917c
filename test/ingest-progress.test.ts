// No good work thrown away: a tariff failing in window k keeps windows 0…k−1 (in order, with its
// cursor) and stops fetching at once; a run killed after a commit leaves its cursors without a
// gap, so a run that is always cut short still completes the backfill over a few runs. Runs are
// stopped on events (a commit in the log), never after a time.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_SIZE } from '../src/api/paginate.js';
import { RATES_PER_COMMIT } from '../src/store/commitSize.js';
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

/** The start of window `index` of a backfill from `from` (each window one page of half-hours). */
function windowStart(from: Date, index: number): Date {
  return new Date(from.getTime() + index * PAGE_SIZE * HALF_HOUR_MS);
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

describe('a tariff failing in window k', () => {
  it('keeps windows 0…k−1 with their cursor, stops fetching that tariff at once, and a re-run completes it', async () => {
    const k = 13;
    const boundary = windowStart(FROM, k);
    const db = tmp.file('fails-in-chunk.duckdb');
    // window k's page (its URL starts at the window's period_from) has an invalid record
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

    // exactly what lies before window k is stored, equal to a clean run's rows there
    const kept = await rowsOf(db);
    const expected = await rowsOf(clean, boundary);
    expect(expected.n).toBeGreaterThan(10_000); // windows 0…k−1 hold real data
    expect(kept).toEqual(expected);
    const [cursor] = await query(db, `SELECT fetched_from, fetched_until FROM ingest_cursors WHERE tariff_code = '${J}' AND rate_kind = 'standard'`);
    expect(cursor).toEqual({ fetched_from: FROM.toISOString().replace('.000Z', 'Z'), fetched_until: boundary.toISOString().replace('.000Z', 'Z') });

    // once the bad page was answered, no new page of J was asked for beyond those already on their way
    const ratesOfJ = sandbox.requests.filter((r) => r.path.includes(`/${J}/standard-unit-rates/`));
    const failedAt = ratesOfJ.findIndex((r) => r.path.includes(`period_from=${inQuery(boundary)}`));
    expect(failedAt).toBeGreaterThan(0);
    const fullRun = 1 + Math.ceil((await rowsOf(clean)).n / 1500) + 6; // probe + pages, with slack
    expect(ratesOfJ.length).toBeLessThan(fullRun);
    // windows before k go on to their end (they are kept); of windows k and after, at most the
    // requests already under way (3 beside the failing one's) arrive after it
    const periodFrom = (path: string) => Date.parse(decodeURIComponent(/period_from=([^&]+)/.exec(path)![1]!));
    const laterWindows = ratesOfJ.slice(failedAt + 1).filter((r) => periodFrom(r.path) >= boundary.getTime());
    expect(laterWindows.length).toBeLessThanOrEqual(3);

    // a re-run without the fault continues from the cursor and ends equal to one clean run
    const rerun = await ingest(db, sandbox.baseUrl, { tariffs: [J], noProducts: true });
    expect(rerun.status).toBe('ok');
    expect(await rowsOf(db)).toEqual(await rowsOf(clean));
  });
});

/** `tariffs ingest` (incremental: from the cursor, or default_from), killed with SIGKILL as soon as
 *  its log says it committed unit rates `commits` times; resolves with how it ended and, for each
 *  of those commits, the rows and batches it wrote. */
function runKilledAfterCommits(db: string, config: string, commits: number, tariffs = [J]): Promise<{ code: number | null; killed: boolean; seen: { rows: number; batches: number }[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'ingest', ...tariffs.flatMap((t) => ['--tariff', t]), '--no-products', '--db', db,
      '--base-url', sandbox.baseUrl, '--config', config, '--format', 'json'], { env: { ...process.env, TARIFFS_LOG_LEVEL: 'debug' } });
    const seen: { rows: number; batches: number }[] = [];
    let pending = '';
    child.stdout.resume();
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      pending += d;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        // a commit of unit rates (standing charges, one small page, are written on their own or with them)
        if (seen.length >= commits || !/"msg":"batches written"/.test(line)) continue;
        const entry = JSON.parse(line) as { rows: number; batches: number; kinds: string[] };
        if (!entry.kinds.includes('standard')) continue;
        seen.push({ rows: entry.rows, batches: entry.batches });
        if (seen.length === commits) child.kill('SIGKILL');
      }
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, killed: signal === 'SIGKILL', seen }));
  });
}

describe('a run killed after its first commit', () => {
  it('leaves each stream stored from the start of its window without a gap, up to its cursor', async () => {
    const db = tmp.file('first-commit.duckdb');
    const config = tmp.file('first-commit.json');
    const from = new Date('2018-01-01T00:00:00Z');
    writeFileSync(config, JSON.stringify({ default_from: from.toISOString() }));
    const A = 'E-1R-AGILE-18-02-21-A';
    sandbox.setLatency(20); // the run is surely killed before it ends by itself
    let result;
    try {
      result = await runKilledAfterCommits(db, config, 1, [A, J]);
    } finally {
      sandbox.setLatency(0);
    }
    expect(result.killed).toBe(true);
    expect(result.seen[0]!.rows).toBeGreaterThan(0);
    expect(result.seen[0]!.rows).toBeLessThan(RATES_PER_COMMIT); // the run's first commit: what came first
    const streams = await query(jobPaths(db).work, `SELECT c.tariff_code AS t, epoch_ms(c.fetched_from) AS f, epoch_ms(c.fetched_until) AS u,
        count(r.valid_from) AS n, epoch_ms(min(r.valid_from)) AS first, epoch_ms(max(r.valid_from)) AS last
      FROM ingest_cursors AS c LEFT JOIN unit_rates AS r ON r.tariff_code = c.tariff_code
      WHERE c.rate_kind = 'standard' GROUP BY ALL ORDER BY 1`);
    expect(streams.reduce((n, s) => n + Number(s.n), 0)).toBe(result.seen[0]!.rows);
    for (const s of streams) {
      expect(Number(s.f)).toBe(from.getTime());
      if (Number(s.n) === 0) continue;
      // half-hours one after another, the last one ending where the cursor does
      expect(Number(s.last) - Number(s.first)).toBe((Number(s.n) - 1) * HALF_HOUR_MS);
      expect(Number(s.u)).toBeGreaterThanOrEqual(Number(s.last) + HALF_HOUR_MS);
      const [after] = await query(clean, `SELECT count(*) AS n FROM unit_rates WHERE tariff_code = '${s.t as string}'
        AND valid_from > make_timestamptz(${Number(s.last)} * 1000) AND valid_from < make_timestamptz(${Number(s.u)} * 1000)`);
      expect(after).toEqual({ n: 0 }); // nothing the cursor covers is missing
    }
  });
});

describe('a run that is always cut short', () => {
  it('killed after its second commit of rates, again and again, completes a backfill in a bounded number of runs', async () => {
    const db = tmp.file('cut-short.duckdb');
    const config = tmp.file('cut-short.json');
    const from = '2021-01-01';
    writeFileSync(config, JSON.stringify({ default_from: from }));
    const expectedRows = (await query(clean, `SELECT count(*) AS n FROM unit_rates WHERE tariff_code = '${J}' AND valid_from >= '${from}'`))[0]!.n as number;
    const pages = Math.ceil(expectedRows / PAGE_SIZE);
    // A run's first commit holds what came first; each later one RATES_PER_COMMIT rates, or what
    // is left at the end; each stream in order.
    const MAX_RUNS = 8;
    const stored: number[] = [];
    let completed = false;
    sandbox.setLatency(150); // slow enough that the kill lands before the run ends by itself
    try {
      for (let run = 1; run <= MAX_RUNS && !completed; run++) {
        const result = await runKilledAfterCommits(db, config, 2);
        if (!result.killed) expect(result.code).toBe(0);
        // what the job has stored: its working file (a killed run's commits reach --db when the next run starts)
        stored.push((await query(jobPaths(db).work, `SELECT count(*) AS n FROM unit_rates WHERE tariff_code = '${J}'`))[0]!.n as number);
        completed = stored.at(-1) === expectedRows;
        console.log(`run ${run}: ${result.killed ? 'killed' : `exit ${result.code}`}, commits ${JSON.stringify(result.seen)}, ${stored.at(-1)} rates stored`);
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
    // and the result, published by a run left to end (it fetches only the look-back again), is the clean one
    expect(await runKilledAfterCommits(db, config, Infinity)).toMatchObject({ code: 0, killed: false });
    const since = new Date(`${from}T00:00:00Z`);
    const expected = await query(clean, `SELECT count(*) AS n, md5(string_agg(concat_ws('|', valid_from, value_inc_vat), ',' ORDER BY valid_from)) AS d
      FROM unit_rates WHERE tariff_code = '${J}' AND valid_from >= TIMESTAMPTZ '${since.toISOString()}'`);
    const got = await query(db, `SELECT count(*) AS n, md5(string_agg(concat_ws('|', valid_from, value_inc_vat), ',' ORDER BY valid_from)) AS d
      FROM unit_rates WHERE tariff_code = '${J}'`);
    expect(got).toEqual(expected);
  });
});

// Leftovers of killed runs: the spill folder a SIGKILL leaves beside the job's working file is
// removed by the next run that holds the writers' lock, and `tariffs migrate --vacuum` gives back the space that kills
// and rewrites left in the file, keeping every row, view, macro and the run-id sequence.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { jobPaths } from '../src/store/WriteSession.js';
import { CLI, runCli } from './helpers/runCli.js';
import { query, ratesFingerprint, tempDir } from './helpers/warehouseTools.js';

const TARIFFS = ['E-1R-AGILE-18-02-21-A', 'E-1R-AGILE-18-02-21-J', 'E-1R-VAR-17-01-11-A'];

let sandbox: Sandbox;
const tmp = tempDir('tariffs-leftovers-');
const db = tmp.file('killed.duckdb');
const args = ['ingest', ...TARIFFS.flatMap((t) => ['--tariff', t]), '--from', '2017-01-01', '--no-products', '--db', db,
  '--base-url', '', '--format', 'json'];

/** What each killed run printed and how it ended, for the message of a failure after them. */
const killedRuns: string[] = [];
const afterKills = (run: { stderr: string }) => `${run.stderr}\nafter:\n${killedRuns.join('\n')}`;

function killedAfter(ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, TARIFFS_LOG_LEVEL: 'warn' } });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    // killed `ms` after it has published --db (at its start): a loaded machine may take longer to get there
    let timer: NodeJS.Timeout | undefined;
    const poll = setInterval(() => {
      if (!existsSync(db)) return;
      clearInterval(poll);
      timer = setTimeout(() => child.kill('SIGKILL'), ms);
    }, 20);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearInterval(poll);
      clearTimeout(timer);
      killedRuns.push(`killed ${ms} ms after --db appeared: ${signal ?? `exit ${code}`}${stderr ? `\n${stderr.slice(-2000)}` : ''}`);
      resolve();
    });
  });
}

beforeAll(async () => {
  sandbox = await startSandbox();
  args[args.indexOf('--base-url') + 1] = sandbox.baseUrl;
});
afterAll(async () => {
  await sandbox.close();
  tmp.remove();
});

describe('leftovers of killed runs', () => {
  it('no spill folder survives the next run', async () => {
    sandbox.setLatency(60);
    try {
      for (const ms of [100, 800, 1600]) await killedAfter(ms);
    } finally {
      sandbox.setLatency(0);
    }
    // what a process killed while spilling leaves (DuckDB names its spill files so), beside the
    // file the job writes: its working file
    const spill = `${jobPaths(db).work}.tmp`;
    mkdirSync(spill, { recursive: true });
    writeFileSync(`${spill}/duckdb_temp_storage_S32K-0.tmp`, Buffer.alloc(256 * 1024));
    // a reader never touches it: it cannot know whether a writer is spilling
    expect((await runCli(['sql', '--db', db, 'SELECT 1 AS x'])).code).toBe(0);
    expect(existsSync(spill)).toBe(true);
    const rerun = await runCli(args);
    expect(rerun.code, afterKills(rerun)).toBe(0);
    expect(existsSync(spill)).toBe(false);
  });

  it('`tariffs migrate --vacuum` shrinks the file and keeps rows, views, macros and the run ids', async () => {
    const before = await ratesFingerprint(db);
    const lastRun = (await query(db, 'SELECT max(run_id) AS id FROM ingest_runs'))[0]!.id as number;
    // space given back by a rewrite: blocks a dropped table used stay in the file (the kills above
    // may leave little, since each commit writes whole row groups)
    const instance = await DuckDBInstance.create(db);
    const connection = await instance.connect();
    await connection.run('CREATE TABLE churn AS SELECT range AS x, md5(range::VARCHAR) AS y FROM range(300000)');
    await connection.run('CHECKPOINT');
    await connection.run('DROP TABLE churn');
    await connection.run('CHECKPOINT');
    connection.closeSync();
    instance.closeSync();
    const sizeBefore = statSync(db).size;
    const vacuum = await runCli(['migrate', '--vacuum', '--db', db]);
    expect(vacuum.code, afterKills(vacuum)).toBe(0);
    expect(vacuum.stdout).toMatch(/vacuumed \d+\.\d\d MB -> \d+\.\d\d MB/);
    const sizeAfter = statSync(db).size;
    expect(sizeAfter).toBeLessThan(sizeBefore);
    expect(readdirSync(tmp.dir).filter((f) => f.includes('vacuum'))).toEqual([]);
    expect(await ratesFingerprint(db)).toEqual(before);
    // views and macros answer as before
    const [day] = await query(db, `SELECT count(*) AS slots FROM rate_slots WHERE tariff_code = '${TARIFFS[1]}' AND local_date = '2020-10-25'`);
    expect(day).toEqual({ slots: 50 });
    const cheapest = await query(db, `SELECT slots FROM cheapest_window('${TARIFFS[1]}', 4, TIMESTAMPTZ '2023-12-24 00:00:00Z', TIMESTAMPTZ '2023-12-25 00:00:00Z')`);
    expect(cheapest).toEqual([{ slots: 4 }]);
    // the next run continues the run ids and writes normally
    const next = await runCli(args);
    expect(next.code, next.stderr).toBe(0);
    expect(JSON.parse(next.stdout)[0].run_id).toBe(lastRun + 1);
    expect(await ratesFingerprint(db)).toEqual(before);
  });
});

// `npx tariffs …` runs the CLI under `sh -c`; a SIGTERM to that wrapper kills it without passing
// the signal on. The orphaned CLI notices its parent went away and stops as on SIGTERM: the
// current write finishes, the run is recorded as interrupted, the database is released.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { holdWriteLock } from '../src/store/WriteSession.js';
import { CLI } from './helpers/runCli.js';
import { query, tempDir } from './helpers/warehouseTools.js';

const A = 'E-1R-AGILE-18-02-21-A';
const J = 'E-1R-AGILE-18-02-21-J';

let sandbox: Sandbox;
const tmp = tempDir('tariffs-parent-');

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
  tmp.remove();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the parent wrapper is killed', () => {
  it('SIGTERM to `sh -c` around the CLI stops the CLI within seconds, recorded as interrupted', async () => {
    const db = tmp.file('orphan.duckdb');
    const args = [CLI, 'ingest', '--tariff', A, '--tariff', J, '--from', '2017-01-01', '--no-products',
      '--db', db, '--base-url', sandbox.baseUrl, '--format', 'json'].map((a) => `'${a}'`).join(' ');
    sandbox.setLatency(400); // the whole backfill (~110 pages, 4 at a time) would take 10 s or more
    // as npm exec does: a shell that waits for the CLI (the trailing `wait` keeps sh from exec'ing)
    const wrapper = spawn('sh', ['-c', `'${process.execPath}' ${args} & echo $!; wait`], {
      env: { ...process.env, TARIFFS_LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    wrapper.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    wrapper.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    // the pipes close when the last writer, the CLI itself, has exited
    const cliGone = new Promise<void>((resolve) => wrapper.stdout.on('close', () => resolve()));
    try {
      const started = Date.now();
      while (!existsSync(db) && Date.now() - started < 30_000) await sleep(50);
      await sleep(2_000); // into the backfill
      wrapper.kill('SIGTERM');
      const cliPid = Number(stdout.split('\n')[0]);
      expect(cliPid).toBeGreaterThan(0);
      // the CLI exits on its own; one that ignored its parent's exit would still be running after 30 s
      const outcome = await Promise.race([cliGone.then(() => 'exited'), sleep(30_000).then(() => 'still running')]);
      if (outcome !== 'exited') process.kill(cliPid, 'SIGKILL');
      expect(outcome).toBe('exited');
    } finally {
      sandbox.setLatency(0);
    }
    expect(stderr).toMatch(/parent process exited/);
    expect(await query(db, 'SELECT status FROM ingest_runs')).toEqual([{ status: 'interrupted' }]);
    // nothing half-written, and the file is free for the next run
    expect(await query(db, `SELECT tariff_code FROM unit_rates GROUP BY tariff_code, rate_type, valid_from, payment_method HAVING count(*) > 1`)).toEqual([]);
    const release = await holdWriteLock(db, 0);
    release();
  });
});

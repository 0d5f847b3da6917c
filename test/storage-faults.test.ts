// When the file or the disk fails: a corrupt block and a full disk are reported naming the
// database file and what to do; the ingest still prints its summary (status failed), and a
// re-run once the disk has room gives the data of one clean run.
import { spawn } from 'node:child_process';
import { openSync, statSync, writeSync, closeSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { CLI, runCli } from './helpers/runCli.js';
import { ingest, query, ratesFingerprint, tempDir } from './helpers/warehouseTools.js';

const J = 'E-1R-AGILE-18-02-21-J';

let sandbox: Sandbox;
const tmp = tempDir('tariffs-storage-');

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
  tmp.remove();
});

describe('a corrupt block', () => {
  it('names the database file and what to do, exit 1', async () => {
    const db = tmp.file('corrupt.duckdb');
    await ingest(db, sandbox.baseUrl, { tariffs: [J], from: new Date('2020-01-01T00:00:00Z'), noProducts: true });
    // scribble over blocks in the middle of the file (the header at the start stays intact)
    const size = statSync(db).size;
    const fd = openSync(db, 'r+');
    for (let at = Math.floor(size * 0.2); at < size * 0.8; at += 64 * 1024) writeSync(fd, Buffer.alloc(512, 0x5a), 0, 512, at);
    closeSync(fd);
    const result = await runCli(['sql', '--db', db, '--format', 'json', 'SELECT count(*) AS n, sum(value_inc_vat) AS s FROM unit_rates']);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(`database ${db} is damaged`);
    expect(result.stderr).toMatch(/Corrupt database file|checksum/);
    expect(result.stderr).toMatch(/restore it from a backup, or move it aside/i);
  });
});

describe('a full disk', () => {
  it('ends the ingest with its summary (status failed) and an error naming the file; a re-run with room completes it', async () => {
    const db = tmp.file('full.duckdb');
    const clean = tmp.file('full-clean.duckdb');
    const args = ['ingest', '--tariff', J, '--from', '2023-01-01', '--no-products', '--db', db, '--base-url', sandbox.baseUrl, '--format', 'json'];
    expect((await runCli(['migrate', '--db', db])).code).toBe(0);
    // the file may grow by 64 KiB at most: as if the disk filled up (writes then fail with EFBIG;
    // the signal that would otherwise kill the process is ignored, as ENOSPC kills nothing)
    const limitKiB = Math.ceil(statSync(db).size / 1024) + 64;
    const quoted = [process.execPath, CLI, ...args].map((a) => `'${a}'`).join(' ');
    // (spawned asynchronously: the sandbox answering it runs in this process)
    const full = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn('bash', ['-c', `ulimit -f ${limitKiB}; trap '' XFSZ; exec ${quoted}`], {
        env: { ...process.env, TARIFFS_LOG_LEVEL: 'silent' },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('error', reject);
      child.on('close', (status) => {
        clearTimeout(timer);
        resolve({ status, stdout, stderr });
      });
    });
    expect(full.status).toBe(1);
    const summary = JSON.parse(full.stdout)[0];
    expect(summary).toMatchObject({ status: 'failed', tariffs: 1 });
    expect(summary.errors.join('\n')).toContain(db);
    expect(full.stderr).toContain(`database ${db}`);
    expect(full.stderr).toMatch(/the disk is full \(or the file reached a size limit\)/);
    expect(full.stderr).not.toMatch(/^\s+at /m); // one line per error, no stack

    // with room again: the run completes, equal to one clean run, nothing duplicated
    const rerun = await runCli(args);
    expect(rerun.code).toBe(0);
    await ingest(clean, sandbox.baseUrl, { tariffs: [J], from: new Date('2023-01-01T00:00:00Z'), noProducts: true });
    expect(await ratesFingerprint(db)).toEqual(await ratesFingerprint(clean));
    expect(await query(db, `SELECT status FROM ingest_runs WHERE status = 'running'`)).toEqual([]);
  });
});

// A SIGTERM that arrives while the command line is still loading is held for the commands that
// stop gracefully, and handled as one that came later: the run is recorded as interrupted, the
// exit is 143. Other commands keep the default (the signal ends them).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeOfSignal, holdEarlySignals, takeEarlySignal } from '../src/cli/signals.js';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { CLI } from './helpers/runCli.js';
import { query, tempDir } from './helpers/warehouseTools.js';

const J = 'E-1R-AGILE-18-02-21-J';
const tmp = tempDir('tariffs-early-signal-');
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
  tmp.remove();
});

/** Whether a process has loaded DuckDB's native module yet (Linux: /proc/PID/maps): the command
 *  line is then loading its modules, well before a command could install a handler. */
function loadingDuckdb(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/maps`, 'utf8').includes('duckdb.node');
  } catch {
    return false;
  }
}

describe('signals while the command line loads', () => {
  it('held for ingest (as a later one: the run recorded interrupted, exit 143), not for other commands', () => {
    const before = { term: process.listenerCount('SIGTERM'), int: process.listenerCount('SIGINT') };
    holdEarlySignals(['node', 'tariffs', 'query', 'SELECT 1']);
    expect(process.listenerCount('SIGTERM')).toBe(before.term);
    holdEarlySignals(['node', 'tariffs', '--verbose', 'ingest', '--tariff', J]);
    expect(process.listenerCount('SIGTERM')).toBe(before.term + 1);
    expect(process.listenerCount('SIGINT')).toBe(before.int + 1);
    process.emit('SIGTERM', 'SIGTERM');
    expect(takeEarlySignal()).toBe('SIGTERM');
    expect(takeEarlySignal()).toBeUndefined(); // once
    expect(process.listenerCount('SIGTERM')).toBe(before.term);
    holdEarlySignals(['node', 'tariffs', 'events', 'load', 'x.jsonl']);
    expect(process.listenerCount('SIGINT')).toBe(before.int + 1);
    expect(takeEarlySignal()).toBeUndefined();
    expect(process.listenerCount('SIGINT')).toBe(before.int);
    expect(exitCodeOfSignal('SIGINT')).toBe(130);
  });

  it.skipIf(process.platform !== 'linux')('tariffs ingest signalled while it loads its modules: interrupted, recorded, exit 143', async () => {
    const db = tmp.file('early.duckdb');
    const child = spawn(process.execPath, [CLI, 'ingest', '--tariff', J, '--no-products', '--from', '2020-01-01', '--db', db,
      '--base-url', sandbox.baseUrl, '--format', 'json'], { env: { ...process.env, TARIFFS_LOG_LEVEL: 'warn' } });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.resume();
    const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
    const started = Date.now();
    while (!loadingDuckdb(child.pid!) && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 1));
    const signalledAfterMs = Date.now() - started;
    child.kill('SIGTERM');
    const run = await closed;
    expect(run.signal).toBeNull();
    expect(run.code).toBe(143);
    expect(stderr).toMatch(/SIGTERM/);
    expect(await query(db, 'SELECT status FROM ingest_runs')).toEqual([{ status: 'interrupted' }]);
    console.log(`SIGTERM sent ${signalledAfterMs} ms after start, as DuckDB's module was loaded`);
  });
});

// A writing command whose `--db` directory cannot be written fails at once, exit 1, with one line
// naming the directory and why; a missing directory that can be made is made, as before; a
// working file it may not read is reported so, and kept.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { jobPaths } from '../src/store/WriteSession.js';
import { CLI } from './helpers/runCli.js';
import { tempDir } from './helpers/warehouseTools.js';

const tmp = tempDir('tariffs-db-directory-');
afterAll(() => {
  chmodSync(tmp.file('read-only'), 0o755);
  tmp.remove();
});

/** Root ignores permission bits; without the capabilities that let it, it honours them. */
const AS_USER = process.getuid?.() === 0 ? ['setpriv', '--bounding-set=-dac_override,-dac_read_search,-fowner', '--'] : [];
const canDropRoot = AS_USER.length === 0 || spawnSync(AS_USER[0]!, [...AS_USER.slice(1), 'true']).status === 0;

function tariffs(args: string[], asUser = false): { code: number | null; stderr: string } {
  const [command, ...prefix] = asUser && AS_USER.length > 0 ? AS_USER : [process.execPath];
  const argv = asUser && AS_USER.length > 0 ? [...prefix, process.execPath, CLI, ...args] : [CLI, ...args];
  const run = spawnSync(command!, argv, {
    encoding: 'utf8', timeout: 120_000,
    env: { ...process.env, TARIFFS_LOG_LEVEL: 'warn', TARIFFS_CONFIG: '', XDG_CONFIG_HOME: '/nonexistent-tariffs-test-config' },
  });
  return { code: run.status, stderr: run.stderr };
}

function expectOneLine(result: { code: number | null; stderr: string }, line: RegExp): void {
  expect(result.code, result.stderr).toBe(1);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(line);
  expect(result.stderr).not.toMatch(/ENOENT|EACCES|ENOTDIR|mkdir/);
}

describe('--db in a directory that cannot be written', () => {
  it('a path under a regular file: names it, exit 1', () => {
    const file = tmp.file('a-file');
    writeFileSync(file, 'not a directory');
    expectOneLine(tariffs(['migrate', '--db', `${file}/w.duckdb`]), new RegExp(`^tariffs: cannot write ${file}/w\\.duckdb: ${file} is not a directory$`, 'm'));
    const csv = tmp.file('readings.csv');
    writeFileSync(csv, 'interval_start,kwh\n2024-01-01T00:00:00Z,0.5\n');
    expectOneLine(tariffs(['consumption', 'import', '--db', `${file}/sub/w.duckdb`, '--meter', '1200000000001:S1', csv]),
      new RegExp(`the directory ${file}/sub cannot be made: ${file} is not a directory`));
  });

  it.skipIf(!canDropRoot)('a directory not writable, and a missing one inside it: names the directory, permission denied, exit 1', () => {
    const readOnly = tmp.file('read-only');
    mkdirSync(readOnly);
    chmodSync(readOnly, 0o555);
    expectOneLine(tariffs(['migrate', '--db', `${readOnly}/w.duckdb`], true),
      new RegExp(`^tariffs: cannot write ${readOnly}/w\\.duckdb: the directory ${readOnly} is not writable \\(permission denied\\)$`, 'm'));
    expectOneLine(tariffs(['ingest', '--db', `${readOnly}/missing/w.duckdb`, '--tariff', 'E-1R-AGILE-18-02-21-J', '--base-url', 'http://127.0.0.1:9'], true),
      new RegExp(`the directory ${readOnly}/missing does not exist, and ${readOnly} does not let it be made \\(permission denied\\)`));
    expect(existsSync(`${readOnly}/.w.duckdb.job`)).toBe(false);
  });

  it.skipIf(!canDropRoot)("a working file the job may not read is reported as it is, not set aside as unreadable", () => {
    const db = tmp.file('refused/w.duckdb');
    expect(tariffs(['migrate', '--db', db]).code).toBe(0);
    const { work, folder } = jobPaths(db);
    chmodSync(work, 0o000);
    try {
      const result = tariffs(['migrate', '--db', db], true);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/Permission denied/i);
    } finally {
      chmodSync(work, 0o644);
    }
    expect(existsSync(`${folder}/unreadable`)).toBe(false);
    expect(tariffs(['migrate', '--db', db]).code).toBe(0);
  });

  it('a missing directory that can be made is made', () => {
    const db = tmp.file('new/deeper/w.duckdb');
    expect(tariffs(['migrate', '--db', db]).code).toBe(0);
    expect(existsSync(db)).toBe(true);
  });
});

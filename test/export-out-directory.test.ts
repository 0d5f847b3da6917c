// `export --out` where no directory can be made: one line naming the directory and why, exit 1,
// within seconds. /proc refuses new directories with ENOENT though its parent exists, which made
// Node's recursive mkdir retry forever (writableDirectory.ts makes them level by level).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from './helpers/runCli.js';
import { tempDir } from './helpers/warehouseTools.js';

const tmp = tempDir('tariffs-export-out-');
afterAll(() => {
  if (existsSync(tmp.file('read-only'))) chmodSync(tmp.file('read-only'), 0o755);
  tmp.remove();
});

/** Root ignores permission bits; without the capabilities that let it, it honours them. */
const AS_USER = process.getuid?.() === 0 ? ['setpriv', '--bounding-set=-dac_override,-dac_read_search,-fowner', '--'] : [];
const canDropRoot = AS_USER.length === 0 || spawnSync(AS_USER[0]!, [...AS_USER.slice(1), 'true']).status === 0;

/** The export fails before the database is opened: none is needed. A run that loops is killed
 *  after 30 s (a bound for a loaded machine, not a timing assertion): its status is then null, not 1. */
function exportTo(out: string, asUser = false): { code: number | null; stderr: string } {
  const args = [CLI, 'export', '--db', tmp.file('none.duckdb'), '--out', out];
  const [command, ...argv] = asUser && AS_USER.length > 0 ? [...AS_USER, process.execPath, ...args] : [process.execPath, ...args];
  const run = spawnSync(command!, argv, {
    encoding: 'utf8', timeout: 30_000, killSignal: 'SIGKILL',
    env: { ...process.env, TARIFFS_LOG_LEVEL: 'warn', TARIFFS_CONFIG: '', XDG_CONFIG_HOME: '/nonexistent-tariffs-test-config' },
  });
  return { code: run.status, stderr: run.stderr };
}

function expectOneLine(result: { code: number | null; stderr: string }, line: string): void {
  expect(result.code, result.stderr).toBe(1);
  expect(result.stderr.trim().split('\n')).toEqual([line]);
  expect(result.stderr).not.toMatch(/ENOENT|EACCES|ENOTDIR|EROFS|mkdir/);
}

describe('export --out that cannot be made', () => {
  it.skipIf(!existsSync('/proc/self'))('under /proc: ends at once, exit 1, the file system named as the reason', () => {
    expectOneLine(exportTo('/proc/x/reports'),
      'tariffs: cannot write reports to /proc/x/reports: the directory /proc/x/reports does not exist and cannot be made in /proc (its file system takes no new directories)');
  });

  it('under a regular file: names the file', () => {
    const file = tmp.file('a-file');
    writeFileSync(file, 'not a directory');
    expectOneLine(exportTo(`${file}/reports`),
      `tariffs: cannot write reports to ${file}/reports: the directory ${file}/reports cannot be made: ${file} is not a directory`);
  });

  it.skipIf(!canDropRoot)('in a read-only directory: permission denied, not ENOENT', () => {
    const readOnly = tmp.file('read-only');
    mkdirSync(readOnly);
    chmodSync(readOnly, 0o555);
    expectOneLine(exportTo(`${readOnly}/reports`, true),
      `tariffs: cannot write reports to ${readOnly}/reports: the directory ${readOnly}/reports does not exist, and ${readOnly} does not let it be made (permission denied)`);
    expectOneLine(exportTo(readOnly, true),
      `tariffs: cannot write reports to ${readOnly}: the directory ${readOnly} is not writable (permission denied)`);
  });
});

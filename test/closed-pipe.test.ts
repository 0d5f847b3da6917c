// Output to a closed pipe: `tariffs sql "…" | head -1` ends quietly with status 0 (as git, grep).
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from './helpers/runCli.js';
import { tempDir } from './helpers/warehouseTools.js';

const tmp = tempDir('tariffs-pipe-');
const db = tmp.file('pipe.duckdb');

beforeAll(async () => {
  expect((await runCli(['migrate', '--db', db])).code).toBe(0);
});
afterAll(() => tmp.remove());

/** Runs `tariffs ARGS | head -1` in bash; returns the CLI's own status (PIPESTATUS) and both outputs. */
function piped(args: string[]): { status: number; stdout: string; stderr: string } {
  const quoted = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const result = spawnSync('bash', ['-c', `${quoted} | head -1; echo "cli_status=\${PIPESTATUS[0]}" >&2`], {
    encoding: 'utf8', env: { ...process.env, TARIFFS_LOG_LEVEL: 'warn' }, timeout: 60_000,
  });
  const match = /cli_status=(\d+)/.exec(result.stderr);
  return { status: Number(match?.[1] ?? -1), stdout: result.stdout, stderr: result.stderr.replace(/cli_status=\d+\n?/, '') };
}

describe('a closed pipe', () => {
  it('`tariffs sql … | head -1` exits 0 without a stack trace', () => {
    // far more than a pipe buffer (64 KiB), so the CLI is still writing when head exits
    const result = piped(['sql', '--db', db, '--format', 'csv', 'SELECT range AS n, md5(range::VARCHAR) AS h FROM range(300000)']);
    expect(result.stdout).toBe('n,h\n');
    expect(result.stderr).not.toMatch(/EPIPE|Error|at /);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('a failing command keeps its status when nobody reads the output', () => {
    const result = piped(['sql', '--db', db, 'SELECT * FROM no_such_table']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/no_such_table/);
  });
});

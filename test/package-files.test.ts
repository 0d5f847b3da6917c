// What `npm pack` ships (issue 53, item 7): the build, sql/, the run-time data, README and
// LICENSE, and no test, fixture, bench or TypeScript source. Then the tarball itself, unpacked
// beside this checkout's node_modules, runs as a user runs it: an ingest from the sandbox and a
// question of it, answered as the checkout's CLI answers.
import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../src/paths.js';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { runCli } from './helpers/runCli.js';
import { tempDir } from './helpers/warehouseTools.js';

const ROOT = packageRoot();
const npm = (args: string[]) => execFileSync('npm', [...args, '--ignore-scripts', '--json'], {
  cwd: ROOT, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'error' },
});

describe('npm pack', () => {
  const tmp = tempDir('tariffs-pack-');
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => {
    await sandbox.close();
    tmp.remove();
  });

  const files = (JSON.parse(npm(['pack', '--dry-run'])) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);

  it('lists the build, sql/, the run-time data, README and LICENSE, and nothing else', () => {
    for (const needed of ['dist/src/cli/main.js', 'dist/warehouse-template.duckdb', 'sql/public/daily_stats.sql',
      'README.md', 'LICENSE', 'package.json']) expect(files, needed).toContain(needed);
    expect(files.some((f) => f.startsWith('data/sandbox/')), 'the sandbox\'s recorded prices (demo, sandbox)').toBe(true);
    const stray = files.filter((f) => /^(test|bench|docs|dist\/(test|bench))\/|fixture|\.ts$|\.map$/.test(f));
    expect(stray).toEqual([]);
    const allowed = /^(dist\/src\/.+\.js|dist\/warehouse-template\.duckdb|sql\/.+\.sql|data\/sandbox\/.+|src\/events\/event-catalog\.txt|README\.md|LICENSE|package\.json)$/;
    expect(files.filter((f) => !allowed.test(f))).toEqual([]);
  });

  it('unpacked, runs an ingest and a question as the checkout does', async () => {
    const [packed] = JSON.parse(npm(['pack', '--pack-destination', tmp.dir])) as { filename: string }[];
    execFileSync('tar', ['-xzf', join(tmp.dir, packed!.filename), '-C', tmp.dir]);
    const unpacked = join(tmp.dir, 'package');
    symlinkSync(join(ROOT, 'node_modules'), join(unpacked, 'node_modules'));
    const db = tmp.file('packed.duckdb');
    // (a child process the test awaits: the sandbox answers from this process)
    const cli = (args: string[]) => runCli(args, { cli: join(unpacked, 'dist/src/cli/main.js'), cwd: tmp.dir });
    const tariff = ['--tariff', 'E-1R-AGILE-18-02-21-J', '--from', '2023-10-28', '--to', '2023-10-31'];
    const ingested = await cli(['ingest', '--db', db, '--base-url', sandbox.baseUrl, '--no-products', ...tariff]);
    expect(ingested.code, ingested.stderr).toBe(0);
    const daily = await cli(['daily', '--db', db, ...tariff, '--format', 'csv']);
    expect(daily.code, daily.stderr).toBe(0);
    expect(daily.stdout.trim().split('\n')).toHaveLength(4); // the header and three days, one of them 50 half-hours
    expect(daily.stdout).toBe((await runCli(['daily', '--db', db, ...tariff, '--format', 'csv'])).stdout);
  }, 60_000);
});

// Every `sh` block of README.md and docs/ run as written (issue 54, item 1): each command exits 0,
// or with the status its line names (`# exit 3`), or its block says why the tests cannot run it
// (`# not run by the tests: …`). Each file's blocks run in order in a folder laid out as the
// checkout after `npx tariffs demo` (data/demo.duckdb, with test/, docs/ and data/sandbox/ beside
// it), `npx tariffs` and `tariffs` being the built CLI. Blocks for the real API run against the
// sandbox: TARIFFS_BASE_URL points every command at it, and a block that starts its own sandbox
// (`npx tariffs sandbox --port 8080 … &`) gets a free port, its URL put where the block wrote
// `http://127.0.0.1:8080/v1/`. And no fence is left open (GitHub would show the rest as code).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { copyOfDemoWarehouse } from './helpers/demoWarehouse.js';
import { fencedBlocks, markdownFiles, notRunReason, REPO, shellCommands, type ShellCommand } from './helpers/markdownBlocks.js';
import { CLI } from './helpers/runCli.js';
import { tempDir } from './helpers/warehouseTools.js';

const files = markdownFiles();
const tmp = tempDir('tariffs-docs-');
let sandbox: Sandbox;
let shims: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  shims = tmp.file('bin');
  mkdirSync(shims);
  const realNpx = spawnSync('sh', ['-c', 'command -v npx'], { encoding: 'utf8' }).stdout.trim();
  writeFileSync(join(shims, 'tariffs'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  writeFileSync(join(shims, 'npx'), `#!/bin/sh\nif [ "$1" = tariffs ]; then shift; exec "${process.execPath}" "${CLI}" "$@"; fi\nexec "${realNpx}" "$@"\n`);
  for (const shim of ['tariffs', 'npx']) chmodSync(join(shims, shim), 0o755);
}, 120_000);
afterAll(async () => {
  await sandbox?.close();
  tmp.remove();
});

/** A folder laid out as the checkout after the demo. */
async function checkoutAfterDemo(name: string): Promise<string> {
  const dir = tmp.file(name.replace(/\W/g, '_'));
  mkdirSync(join(dir, 'data'), { recursive: true });
  for (const linked of ['test', 'docs', 'sql']) symlinkSync(join(REPO, linked), join(dir, linked));
  symlinkSync(join(REPO, 'data', 'sandbox'), join(dir, 'data', 'sandbox'));
  await copyOfDemoWarehouse(join(dir, 'data', 'demo.duckdb'));
  return dir;
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A block's own sandbox (`npx tariffs sandbox --port 8080 … &`), on a free port: its base URL. */
function backgroundSandbox(command: ShellCommand, cwd: string, env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `exec ${command.text.replace(/--port \d+/, '--port 0')}`], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const url = /http:\/\/127\.0\.0\.1:\d+\/v1\//.exec(out);
      if (url) resolve({ child, url: url[0] });
    });
    child.on('close', (code) => reject(new Error(`${command.text}: exited ${code} before serving: ${out}`)));
  });
}

describe('the sh blocks of README.md and docs/, run as written', () => {
  for (const file of files) {
    const blocks = fencedBlocks(file).blocks.filter((b) => b.lang === 'sh');
    if (blocks.length === 0) continue;
    it(`${file}: ${blocks.length} block(s)`, async () => {
      const cwd = await checkoutAfterDemo(file);
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PATH: `${shims}:${process.env.PATH}`,
        TARIFFS_BASE_URL: sandbox.baseUrl,
        TARIFFS_CONFIG: '',
        XDG_CONFIG_HOME: join(cwd, 'no-config'),
        TARIFFS_LOG_LEVEL: 'warn',
        NO_COLOR: '1',
      };
      for (const inherited of ['TARIFFS_DB', 'TARIFFS_API_KEY', 'TARIFFS_TOKEN', 'TARIFFS_AUTH']) delete env[inherited];
      let ran = 0;
      const took: [string, number][] = [];
      for (const block of blocks) {
        const reason = notRunReason(block);
        if (reason !== undefined) {
          expect(reason, `${file}:${block.line}: a block not run says why`).toMatch(/\w{3,}/);
          continue;
        }
        const background: ChildProcess[] = [];
        let blockUrl: string | undefined;
        try {
          for (const command of shellCommands(block)) {
            const where = `${file}:${command.line}: ${command.text}`;
            if (command.background) {
              expect(command.text, `${where}: only a sandbox runs in the background`).toMatch(/^npx tariffs sandbox /);
              const started = await backgroundSandbox(command, cwd, env);
              background.push(started.child);
              blockUrl = started.url;
              continue;
            }
            const text = blockUrl ? command.text.replaceAll('http://127.0.0.1:8080/v1/', blockUrl) : command.text;
            const started = performance.now();
            const result = await run(text, cwd, env);
            took.push([text, (performance.now() - started) / 1000]);
            ran++;
            expect(result.code, `${where}\nstdout: ${result.stdout.slice(-800)}\nstderr: ${result.stderr.slice(-1500)}`).toBe(command.exit);
          }
        } finally {
          for (const child of background) child.kill('SIGTERM');
        }
      }
      // where the time went
      console.log(`${file}: slowest: ${took.sort((a, b) => b[1] - a[1]).slice(0, 5).map(([c, t]) => `${t.toFixed(1)} s ${c.slice(0, 90)}`).join('; ')}`);
      expect(ran + blocks.filter((b) => notRunReason(b) !== undefined).length).toBeGreaterThan(0);
    }, 900_000);
  }
});

describe('Markdown fences', () => {
  it('are all closed, and a closing fence has nothing after it', () => {
    const problems = files.flatMap((f) => fencedBlocks(f).problems.map((p) => `${p.file}:${p.line}: ${p.problem}`));
    expect(problems).toEqual([]);
  });

  it('link only to files that exist', () => {
    const broken: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(REPO, file), 'utf8');
      for (const m of text.matchAll(/\]\(([^)#:\s]+)(#[^)]*)?\)/g)) {
        if (!existsSync(join(REPO, dirname(file), m[1]!))) broken.push(`${file}: ${m[1]}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

// Runs the built CLI (dist/) as a child process, the way users and cron run it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string; timeoutMs?: number; /** Another build's main.js (an unpacked tarball's). */ cli?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.cli ?? CLI, ...args], {
      cwd: options.cwd,
      // No config from the machine running the tests (TARIFFS_CONFIG, ~/.config/tariffs/config.json).
      env: { ...process.env, TARIFFS_LOG_LEVEL: 'warn', TARIFFS_CONFIG: '', XDG_CONFIG_HOME: '/nonexistent-tariffs-test-config', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Runs every case at once, each with `extra` appended (each spends most of its time starting node
 *  and DuckDB); the results under the cases' names. */
export async function runCliCases<K extends string>(cases: Record<K, string[]>, extra: string[]): Promise<Record<K, CliResult>> {
  const entries = Object.entries(cases) as [K, string[]][];
  const results = await Promise.all(entries.map(([, args]) => runCli([...args, ...extra])));
  return Object.fromEntries(entries.map(([name], i) => [name, results[i]!])) as Record<K, CliResult>;
}

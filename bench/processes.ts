// Child processes of the benchmarks: the sandbox server and one-shot measured runs.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

export interface BenchServer {
  baseUrl: string;
  tariffs: string[];
  rows: number;
  stop(): Promise<void>;
}

export async function startBenchSandbox(tariffs: number, latencyMs = 0): Promise<BenchServer> {
  const child = spawn(process.execPath, [here('./benchSandbox.js'), '--tariffs', String(tariffs), '--latency', String(latencyMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await firstLine(child);
  const info = JSON.parse(line) as { baseUrl: string; tariffs: string[]; rows: number };
  return {
    ...info,
    stop: () => new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}

export async function runJson<T>(script: string, args: string[]): Promise<T> {
  const child = spawn(process.execPath, [here(script), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await firstLine(child);
  await new Promise((resolve) => child.once('exit', resolve));
  return JSON.parse(line) as T;
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', (l) => {
      rl.close();
      resolve(l);
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${child.spawnargs.join(' ')} exited ${code} before printing a result`)));
  });
}

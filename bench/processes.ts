// Child processes of the benchmarks: the sandbox server, one-shot runs printing JSON, and
// commands measured from outside (wall time, peak RSS).
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

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

/** A measured command: its wall time, peak RSS (bench/peakRss.ts; past a time limit, the last
 *  high-water mark read from /proc), exit code, and the tail of its stderr. */
export interface Measured {
  seconds: number;
  maxRssMb: number | null;
  cpuSeconds: number | null;
  code: number | null;
  timedOut: boolean;
  stderr: string;
}

/** Runs `node --import peakRss.js SCRIPT ARGS…` with stdout into `stdoutFile`; past `limitSeconds`
 *  it is stopped (SIGTERM, then SIGKILL) and reported as timed out. */
export async function measureNode(script: string, args: string[], options: { stdoutFile: string; limitSeconds: number }): Promise<Measured> {
  const rssFile = `${options.stdoutFile}.rss.json`;
  rmSync(rssFile, { force: true });
  const out = openSync(options.stdoutFile, 'w');
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', pathToFileURL(here('./peakRss.js')).href, script, ...args], {
    stdio: ['ignore', out, 'pipe'], env: { ...process.env, TARIFFS_BENCH_RSS_FILE: rssFile },
  });
  closeSync(out);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => { stderr = (stderr + chunk.toString()).slice(-4000); });
  let highWater: number | null = null;
  const sample = setInterval(() => {
    try {
      const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
      if (kb) highWater = Math.round(Number(kb) / 1024);
    } catch { /* exited, or not Linux */ }
  }, 500);
  let timedOut = false;
  const limit = setTimeout(() => {
    timedOut = true;
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  }, options.limitSeconds * 1000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sample);
  clearTimeout(limit);
  const usage = existsSync(rssFile) ? JSON.parse(readFileSync(rssFile, 'utf8')) as { maxRssMb: number; cpuSeconds: number } : undefined;
  rmSync(rssFile, { force: true });
  return { seconds, maxRssMb: usage?.maxRssMb ?? highWater, cpuSeconds: usage?.cpuSeconds ?? null, code, timedOut, stderr };
}

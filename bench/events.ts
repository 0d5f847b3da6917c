// Load benchmark for `tariffs events load`: writes a JSON Lines file of N valid events (every
// catalog id in turn, unique ids) to a temp dir, loads it with the built CLI as a child process,
// and prints one JSON object: throughput and the loader's peak RSS (its own maxRSS, via --stats).
// Usage: node dist/bench/events.js [--events 1000000] [--keep]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadEventCatalog } from '../src/events/loadEventCatalog.js';
import { sampleEvent } from '../src/events/sampleEvents.js';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

/**
 * Streams `count` event lines to `file`, waiting on the stream when its buffer is full. `padding`
 * adds a payload field of that many characters (the catalog tolerates unlisted fields): bigger
 * lines for memory tests.
 */
export async function writeEventsFile(file: string, count: number, options: { padding?: number } = {}): Promise<void> {
  const specs = [...loadEventCatalog().events.values()];
  const lines = specs.map((spec) => {
    const event = sampleEvent(spec, { id: '#', occurred_at: '2024-10-27T01:30:00Z' });
    if (options.padding) event.payload.padding = 'x'.repeat(options.padding);
    return JSON.stringify(event);
  });
  const out = createWriteStream(file);
  const start = Date.UTC(2024, 0, 1);
  for (let i = 0; i < count; i++) {
    const at = new Date(start + i * 1000).toISOString().replace('.000Z', 'Z');
    const line = lines[i % lines.length]!
      .replace('"id":"#"', `"id":"evt-${i}"`)
      .replace('"occurred_at":"2024-10-27T01:30:00Z"', `"occurred_at":"${at}"`);
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runLoad(file: string, db: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'events', 'load', file, '--db', db, '--format', 'json', '--stats'], {
      env: { ...process.env, TARIFFS_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { events: { type: 'string', default: '1000000' }, keep: { type: 'boolean', default: false } } });
  const count = Number(values.events);
  if (!Number.isInteger(count) || count < 1) throw new Error('--events must be a positive integer');
  const dir = await mkdtemp(join(tmpdir(), 'tariffs-bench-events-'));
  try {
    const file = join(dir, 'events.jsonl');
    const written = Date.now();
    await writeEventsFile(file, count);
    const generateSeconds = (Date.now() - written) / 1000;
    const run = await runLoad(file, join(dir, 'bench.duckdb'));
    if (run.code !== 0) throw new Error(`events load exited ${run.code}: ${run.stderr.trim() || run.stdout.trim()}`);
    const summary = JSON.parse(run.stdout) as {
      accepted: number;
      stats: { lines: number; seconds: number; lines_per_second: number; max_rss_mb: number };
    };
    if (summary.accepted !== count) throw new Error(`expected ${count} events accepted, got ${summary.accepted}`);
    const result = {
      bench: 'events-load',
      events: count,
      file_mb: Math.round((await stat(file)).size / 1e5) / 10,
      generate_seconds: generateSeconds,
      load_seconds: summary.stats.seconds,
      events_per_second: summary.stats.lines_per_second,
      max_rss_mb: summary.stats.max_rss_mb,
      db_mb: Math.round((await stat(join(dir, 'bench.duckdb'))).size / 1e5) / 10,
      ...(values.keep ? { dir } : {}),
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    if (!values.keep) await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    process.stderr.write(`bench/events: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}

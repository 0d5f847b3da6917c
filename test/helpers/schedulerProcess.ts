// Runs `tariffs schedule` (the built CLI) as a child process the way systemd would, and follows
// its pino JSON log on stderr so tests can wait for "job ok" lines; plus a read-only peek at the
// database that waits while a job holds it, as an analyst's session would.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Warehouse } from '../../src/store/Warehouse.js';
import { CLI } from './runCli.js';

export type LogLine = Record<string, unknown> & { msg?: string; job?: string; level?: number };

export interface SchedulerProcess {
  child: ChildProcess;
  lines: LogLine[];
  /** stderr text that was not JSON (should stay empty). */
  other: string[];
  /** Resolves with the first log line (already seen or to come) that matches. */
  waitFor(match: (line: LogLine) => boolean, timeoutMs?: number, what?: string): Promise<LogLine>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(signal?: NodeJS.Signals): void;
}

export function writeConfig(file: string, config: Record<string, unknown>): string {
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

export function startScheduler(args: string[], env: NodeJS.ProcessEnv = {}): SchedulerProcess {
  const child = spawn(process.execPath, [CLI, 'schedule', ...args], {
    env: { ...process.env, TARIFFS_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  const other: string[] = [];
  const waiters: { match: (l: LogLine) => boolean; resolve: (l: LogLine) => void }[] = [];
  let buffer = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const text = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      let line: LogLine;
      try {
        line = JSON.parse(text) as LogLine;
      } catch {
        if (text.trim()) other.push(text);
        continue;
      }
      lines.push(line);
      for (const w of waiters.filter((x) => x.match(line))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  child.stdout!.resume();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  return {
    child, lines, other, exited,
    waitFor(match, timeoutMs = 30_000, what = 'log line') {
      const seen = lines.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          reject(new Error(`timed out waiting for ${what}; last lines:\n${lines.slice(-8).map((l) => JSON.stringify(l)).join('\n')}\n${other.join('\n')}`));
        }, timeoutMs);
        waiters.push({ match, resolve: (l) => { clearTimeout(timer); resolve(l); } });
        void exited.then(() => {
          clearTimeout(timer);
          reject(new Error(`scheduler exited while waiting for ${what}:\n${lines.slice(-8).map((l) => JSON.stringify(l)).join('\n')}\n${other.join('\n')}`));
        });
      });
    },
    stop(signal = 'SIGTERM') {
      child.kill(signal);
    },
  };
}

/** Rows of a read-only query, waiting (like an analyst would) while a job holds the file. */
export async function peek(db: string, sql: string): Promise<Record<string, unknown>[]> {
  const w = await Warehouse.open(db, { readOnly: true, busyTimeoutMs: 30_000 });
  try {
    return await w.all(sql);
  } finally {
    w.close();
  }
}

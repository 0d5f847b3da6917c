// One terminal shared by log lines and the progress bar. While a bar is shown, a log line goes
// above it and the bar is redrawn below (cli-progress's MultiBar.log, terminalBar.ts), so lines are
// never glued to the bar or overwritten by it; with no bar, lines go straight to stderr. The bar's
// line is composed to fit the terminal's width (fitBarLine): at 60 columns it shrinks, never gets
// cut. cli-progress itself is loaded only when a bar is drawn (terminalBar.ts).
import { Writable } from 'node:stream';
import { sayNoticesWith } from './signals.js';
import { wrapWords } from './wrapHelp.js';

/** What takes log lines while a bar is shown: they go above it. */
export interface BarLog {
  log(text: string): void;
}

let active: BarLog | undefined;

/** The bar shown now (terminalBar.ts), or none: log lines then go straight to stderr. */
export function showingBar(bar: BarLog | undefined): void {
  active = bar;
}

/** Is `bar` the one shown? */
export function isShowing(bar: BarLog): boolean {
  return active === bar;
}

/** Where the CLI's log lines go on a terminal (pino-pretty writes here). */
export const terminalLog = new Writable({
  write(chunk: Buffer | string, _encoding, done) {
    const text = String(chunk);
    if (active) active.log(text.endsWith('\n') ? text : `${text}\n`);
    else process.stderr.write(text);
    done();
  },
});

// a signal's notice (signals.ts) is a log line like the others: above the bar while one is shown
sayNoticesWith((line) => terminalLog.write(line));

/** A line for people on the terminal (a stage, a run): above the bar when one is shown, wrapped
 *  at spaces to the terminal's width (continued indented). */
export function sayOnTerminal(line: string, stream: NodeJS.WriteStream = process.stderr): void {
  const width = stream.isTTY && stream.columns > 0 ? stream.columns : undefined;
  const text = line.replace(/\n$/, '');
  terminalLog.write(`${width === undefined ? text : wrapWords(text, width, '', '  ').join('\n')}\n`);
}

export interface TerminalBar {
  /** Sets or raises the total; the bar appears on the first call (never at "0/0"). */
  setTotal(total: number): void;
  /** `what`: what is being worked on now, shown at the end of the line while it fits, with the
   *  seconds spent on it (counted from the call that named it). */
  update(value: number, what?: string): void;
  stop(): void;
}

export interface BarLine {
  label: string;
  /** 0..1 */
  progress: number;
  value: number;
  total: number;
  unit: string;
  /** Seconds left, when known from real progress. */
  etaSeconds?: number;
  /** Seconds since the bar appeared: shown always (before the time left), so that the line moves
   *  while the work goes on, even when nothing is counted for a while. */
  elapsedSeconds?: number;
  what?: string | undefined;
  /** Seconds spent on `what` so far, shown after it. */
  stepSeconds?: number;
}

const BAR_MAX = 30;
const BAR_MIN = 8;

/**
 * `label [█████░░░░░] 42% | 1234/5678 records | 20s so far, 12s left | what 3s`, at most
 * `width - 1` characters (the last column is left free: a full line would wrap on some terminals).
 * What gives way, in order: the `what` (shortened, then dropped; its seconds kept to the last), the
 * time left, the time so far, the bar down to BAR_MIN, the counts.
 */
export function fitBarLine(line: BarLine, width: number): string {
  const room = Math.max(20, width) - 1;
  const pct = `${Math.floor(Math.min(1, Math.max(0, line.progress)) * 100)}%`;
  const counts = `${line.value}/${line.total}${line.unit ? ` ${line.unit}` : ''}`;
  const left = line.etaSeconds !== undefined && Number.isFinite(line.etaSeconds) && line.value > 0 && line.value < line.total
    ? `${formatSeconds(line.etaSeconds)} left` : '';
  const soFar = line.elapsedSeconds !== undefined ? `${formatSeconds(line.elapsedSeconds)} so far` : '';
  const times = [soFar, left].filter((t) => t !== '').join(', ');
  const bar = (size: number) => {
    const full = Math.round(Math.min(1, Math.max(0, line.progress)) * size);
    return `[${'\u2588'.repeat(full)}${'\u2591'.repeat(size - full)}]`;
  };
  const compose = (size: number, parts: string[]) =>
    [`${line.label} ${size > 0 ? `${bar(size)} ` : ''}${pct}`, ...parts.filter((p) => p !== '')].join(' | ');
  const fixed = (parts: string[]) => compose(0, parts).length + 3; // the bar's brackets and space
  for (const parts of [[counts, times], [counts, soFar || left], [counts], []]) {
    const spare = room - fixed(parts);
    if (spare >= BAR_MIN) {
      const size = Math.min(BAR_MAX, spare);
      let text = compose(size, parts);
      const what = (line.what ?? '').replace(/\s+/g, ' ').trim();
      const seconds = what !== '' && line.stepSeconds !== undefined ? ` ${formatSeconds(line.stepSeconds)}` : '';
      if (what !== '' && text.length + 3 + Math.min(what.length, 8) + seconds.length <= room) {
        const space = room - text.length - 3 - seconds.length;
        text += ` | ${what.length <= space ? what : `${what.slice(0, space - 1)}\u2026`}${seconds}`;
      }
      return text;
    }
  }
  return compose(0, []).slice(0, room);
}

function formatSeconds(s: number): string {
  const seconds = Math.max(0, Math.round(s));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

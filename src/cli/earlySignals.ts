// SIGINT/SIGTERM received before a command installs its own handler (interruptSignal in
// common.ts): held for the commands that stop gracefully, taken over by that handler. Nothing here
// may import more than node: it runs before the command line loads.

/** Commands (and `events load`) that finish their current write on a signal. */
const GRACEFUL = new Set(['ingest', 'run']);

let held: NodeJS.Signals | undefined;
let holder: ((signal: NodeJS.Signals) => void) | undefined;

/** For a graceful command (from argv, as typed): from now on a signal is held, not fatal. */
export function holdEarlySignals(argv: readonly string[]): void {
  const words = argv.slice(2).filter((a) => !a.startsWith('-'));
  const graceful = GRACEFUL.has(words[0] ?? '') || (words[0] === 'events' && words[1] === 'load');
  if (!graceful || holder) return;
  holder = (signal) => {
    if (held) process.exit(exitCodeOfSignal(signal)); // a second one forces, as it does later
    held = signal;
  };
  process.on('SIGINT', holder);
  process.on('SIGTERM', holder);
}

/** Stops holding; the signal held so far, if any (once). Called by the handler that takes over. */
export function takeEarlySignal(): NodeJS.Signals | undefined {
  if (holder) {
    process.off('SIGINT', holder);
    process.off('SIGTERM', holder);
    holder = undefined;
  }
  const signal = held;
  held = undefined;
  return signal;
}

/** The shell's convention: 128 + the signal's number. */
export function exitCodeOfSignal(signal: NodeJS.Signals): number {
  return signal === 'SIGINT' ? 130 : 143;
}

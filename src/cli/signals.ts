// SIGINT and SIGTERM, for every command: the one place that listens for them.
//  * A signal while the command line loads would kill a command that stops gracefully before it
//    installed its handler, leaving a run recorded as running: main.ts calls holdEarlySignals
//    first, and the signal is held for the command's handler (or, if none takes it, turned into
//    the exit code in program.ts).
//  * onStopSignals: the first signal (or the held one) asks to stop, a later one forces.
//  * interruptSignal: for commands that write (ingest, run, events load), an AbortSignal fired by
//    the first signal or by the loss of our parent process.
// Exit codes follow the shell: 128 + the signal's number. Nothing here may import more than node
// at run time (watchParent imports nothing): main.ts loads it before the command line.
import type { Logger } from '../log/createLogger.js';
import { watchParent } from './watchParent.js';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Commands (and `events load`) that finish their current write on a signal. */
const GRACEFUL = new Set(['ingest', 'run']);

let held: NodeJS.Signals | undefined;

/** Where the notices of a signal go: stderr, or (terminal.ts) above the progress bar while one is
 *  shown, so that the notice is a whole line of its own. */
let sayNotice: (line: string) => void = (line) => void process.stderr.write(line);

/** terminal.ts: the notices go through its log path from now on. */
export function sayNoticesWith(say: (line: string) => void): void {
  sayNotice = say;
}
let holder: ((signal: NodeJS.Signals) => void) | undefined;

/** The shell's convention: 128 + the signal's number. */
export function exitCodeOfSignal(signal: NodeJS.Signals): number {
  return signal === 'SIGINT' ? 130 : 143;
}

function exitAtOnce(signal: NodeJS.Signals): never {
  process.exit(exitCodeOfSignal(signal));
}

function listen(listener: (signal: NodeJS.Signals) => void): () => void {
  for (const name of STOP_SIGNALS) process.on(name, listener);
  return () => {
    for (const name of STOP_SIGNALS) process.off(name, listener);
  };
}

/** For a graceful command (from argv, as typed): from now on a signal is held, not fatal. */
export function holdEarlySignals(argv: readonly string[]): void {
  const words = argv.slice(2).filter((a) => !a.startsWith('-'));
  const graceful = GRACEFUL.has(words[0] ?? '') || (words[0] === 'events' && words[1] === 'load');
  if (!graceful || holder) return;
  holder = (signal) => {
    if (held) exitAtOnce(signal); // a second one forces, as it does later
    held = signal;
  };
  listen(holder);
}

/** Stops holding; the signal held so far, if any (once). */
export function takeEarlySignal(): NodeJS.Signals | undefined {
  if (holder) {
    for (const name of STOP_SIGNALS) process.off(name, holder);
    holder = undefined;
  }
  const signal = held;
  held = undefined;
  return signal;
}

export interface StopHandlers {
  /** The first SIGINT/SIGTERM (or the one held while the command line loaded). */
  first(signal: NodeJS.Signals): void;
  /** Each later one; default: exit at once with 128 + the signal's number. */
  again?(signal: NodeJS.Signals): void;
}

/** Listens for SIGINT/SIGTERM until the returned function is called. A signal held while the
 *  command line loaded is handed to `first` before this returns. */
export function onStopSignals(handlers: StopHandlers): () => void {
  let stopping = false;
  const listener = (signal: NodeJS.Signals) => {
    if (!stopping) {
      stopping = true;
      handlers.first(signal);
    } else if (handlers.again) handlers.again(signal);
    else exitAtOnce(signal);
  };
  const dispose = listen(listener);
  const early = takeEarlySignal();
  if (early) listener(early);
  return dispose;
}

/** An AbortSignal fired by the first SIGINT/SIGTERM, or when the parent process exits (taken as
 *  SIGTERM: a wrapper such as npx that died without passing the signal on); a signal after
 *  either exits at once. */
export function interruptSignal(logger: Logger): { signal: AbortSignal; received: () => NodeJS.Signals | undefined; dispose: () => void } {
  const controller = new AbortController();
  let received: NodeJS.Signals | undefined;
  const stopSignals = onStopSignals({
    first: (sig) => {
      if (received) exitAtOnce(sig); // the parent had gone already
      received = sig;
      logger.warn({ signal: sig }, 'interrupted: finishing the current write, then stopping');
      sayNotice(`tariffs: ${sig} received: finishing the current write, then stopping (again to force)\n`);
      controller.abort(new Error(`interrupted by ${sig}`));
    },
  });
  const unwatch = watchParent(() => {
    if (received) return;
    received = 'SIGTERM';
    logger.warn({ reason: 'parent process exited' }, 'interrupted: finishing the current write, then stopping');
    sayNotice('tariffs: parent process exited (taken as SIGTERM): finishing the current write, then stopping\n');
    controller.abort(new Error('interrupted: parent process exited'));
  });
  return {
    signal: controller.signal,
    received: () => received,
    dispose: () => {
      stopSignals();
      unwatch();
    },
  };
}

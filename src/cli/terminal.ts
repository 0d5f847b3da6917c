// One terminal shared by log lines and the progress bar. While a bar is shown, a log line goes
// above it and the bar is redrawn below (cli-progress's MultiBar.log), so lines are never glued to
// the bar or overwritten by it; with no bar, lines go straight to stderr.
import { Writable } from 'node:stream';
import cliProgress from 'cli-progress';

let active: cliProgress.MultiBar | undefined;

/** Where the CLI's log lines go on a terminal (pino-pretty writes here). */
export const terminalLog = new Writable({
  write(chunk: Buffer | string, _encoding, done) {
    const text = String(chunk);
    if (active) active.log(text.endsWith('\n') ? text : `${text}\n`);
    else process.stderr.write(text);
    done();
  },
});

export interface TerminalBar {
  /** Sets or raises the total; the bar appears on the first call (never at "0/0"). */
  setTotal(total: number): void;
  update(value: number): void;
  stop(): void;
}

export function terminalBar(format: string, stream: NodeJS.WriteStream = process.stderr): TerminalBar {
  let multi: cliProgress.MultiBar | undefined;
  let bar: cliProgress.SingleBar | undefined;
  let value = 0;
  return {
    setTotal(total) {
      if (total <= 0) return; // nothing announced yet: no bar at "0/0"
      if (!multi) {
        multi = new cliProgress.MultiBar({
          stream, format, hideCursor: true, clearOnComplete: true, etaBuffer: 50, gracefulExit: false,
          autopadding: true, barsize: 30,
        }, cliProgress.Presets.shades_classic);
        bar = multi.create(total, value);
        active = multi;
      } else {
        bar!.setTotal(total);
      }
    },
    update(v) {
      value = v;
      bar?.update(v);
    },
    stop() {
      if (!multi) return;
      multi.update(); // prints the log lines still buffered above the bar
      multi.stop();
      if (active === multi) active = undefined;
      multi = undefined;
      bar = undefined;
    },
  };
}

// The progress bar itself, drawn with cli-progress: loaded (through the command index) only when
// a bar is drawn, so a command that draws none never pays for the package. Its line is
// fitBarLine's; log lines go above it (terminal.ts).
// The line is composed afresh at each of cli-progress's redraws (its fps timer), from the clock:
// the seconds so far and those of the step at work tick while the event loop is free, and the time
// left is worked out from the progress counted so far, so it never stands still while a step drags.
import CliProgress from 'cli-progress';
import { fitBarLine, isShowing, showingBar, type TerminalBar } from './terminal.js';

/** When the time left means something: `records`, once records have come in over a while (their
 *  rate); `steps`, once a quarter of the steps are done (steps differ too much in size before). */
export type EtaRule = 'records' | 'steps';

/** Redraws a second: often enough that a ticking second never waits long. */
const FPS = 5;

export function terminalBar(label: string, unit: string, stream: NodeJS.WriteStream = process.stderr, etaRule: EtaRule = 'steps'): TerminalBar {
  let multi: CliProgress.MultiBar | undefined;
  let bar: CliProgress.SingleBar | undefined;
  let value = 0;
  let total = 0;
  let what: string | undefined;
  /** When the bar appeared: its seconds so far count from there. */
  let shown = Date.now();
  let stepSince = shown;
  /** The first progress counted: the records' rate is measured from there. */
  let first: { at: number; value: number } | undefined;

  const etaSeconds = (now: number): number | undefined => {
    if (value <= 0 || value >= total) return undefined;
    if (etaRule === 'records') {
      if (!first || value <= first.value || now - first.at < 1000) return undefined;
      return (total - value) * (now - first.at) / (value - first.value) / 1000;
    }
    if (value < Math.max(2, total / 4)) return undefined;
    return (total - value) * (now - shown) / value / 1000;
  };
  const format: CliProgress.GenericFormatter = (_options, params) => {
    const now = Date.now();
    const eta = etaSeconds(now);
    return fitBarLine({
      label, progress: params.progress, value: params.value, total: params.total, unit, what,
      ...(eta === undefined ? {} : { etaSeconds: eta }),
      elapsedSeconds: (now - shown) / 1000,
      ...(what === undefined ? {} : { stepSeconds: (now - stepSince) / 1000 }),
    }, stream.columns || params.maxWidth);
  };
  return {
    setTotal(t) {
      if (t <= 0) return; // nothing announced yet: no bar at "0/0"
      total = t;
      if (!multi) {
        shown = Date.now();
        multi = new CliProgress.MultiBar({
          stream, format, hideCursor: true, clearOnComplete: true, gracefulExit: false, fps: FPS,
          autopadding: true,
        }, CliProgress.Presets.shades_classic);
        bar = multi.create(t, value);
        showingBar(multi);
      } else {
        bar!.setTotal(t);
      }
    },
    update(v, now) {
      if (v > value && !first) first = { at: Date.now(), value: v };
      value = v;
      if (now !== undefined && now !== what) {
        what = now;
        stepSince = Date.now();
      }
      bar?.update(v);
    },
    stop() {
      if (!multi) return;
      multi.update(); // prints the log lines still buffered above the bar
      multi.stop();
      if (isShowing(multi)) showingBar(undefined);
      multi = undefined;
      bar = undefined;
    },
  };
}

// The progress bar itself, drawn with cli-progress: loaded (through the command index) only when
// a bar is drawn, so a command that draws none never pays for the package. Its line is
// fitBarLine's; log lines go above it (terminal.ts).
import CliProgress from 'cli-progress';
import { fitBarLine, isShowing, showingBar, type TerminalBar } from './terminal.js';

export function terminalBar(label: string, unit: string, stream: NodeJS.WriteStream = process.stderr): TerminalBar {
  let multi: CliProgress.MultiBar | undefined;
  let bar: CliProgress.SingleBar | undefined;
  let value = 0;
  let what: string | undefined;
  const format: CliProgress.GenericFormatter = (_options, params) => fitBarLine({
    label, progress: params.progress, value: params.value, total: params.total, unit, what,
    // cli-progress says 'NULL' or 'INF' while it cannot tell
    ...(typeof params.eta === 'number' ? { etaSeconds: params.eta } : {}),
    elapsedSeconds: (Date.now() - params.startTime) / 1000,
  }, stream.columns || params.maxWidth);
  return {
    setTotal(total) {
      if (total <= 0) return; // nothing announced yet: no bar at "0/0"
      if (!multi) {
        multi = new CliProgress.MultiBar({
          stream, format, hideCursor: true, clearOnComplete: true, etaBuffer: 50, gracefulExit: false,
          autopadding: true,
        }, CliProgress.Presets.shades_classic);
        bar = multi.create(total, value);
        showingBar(multi);
      } else {
        bar!.setTotal(total);
      }
    },
    update(v, now) {
      value = v;
      if (now !== undefined) what = now;
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

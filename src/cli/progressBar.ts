// Progress bars on stderr when it is a terminal; nothing otherwise, so cron mail and piped logs
// stay clean. Log lines print above them (src/cli/terminal.ts). createProgressBar counts records
// (an ingest: those fetched of those the first pages announced); createStepBar counts steps (an
// export's reports and chart series), naming the one at work.
import type { Progress } from '../ingest/ingestRates.js';
import type { ExportProgress } from '../report/exportReports.js';
import { terminalBar } from './terminal.js';

export interface ProgressBar extends Progress {
  stop(): void;
}

export interface StepBar extends ExportProgress {
  stop(): void;
}

export function createProgressBar(label: string, stream: NodeJS.WriteStream = process.stderr): ProgressBar | undefined {
  // records are steps of one each: the step bar's counter, without a "working on" label
  const steps = createStepBar(label, 'records', stream);
  if (!steps) return undefined;
  return {
    expect: (records) => steps.expect(records),
    advance: (records) => steps.done(records),
    stop: () => steps.stop(),
  };
}

export function createStepBar(label: string, unit: string, stream: NodeJS.WriteStream = process.stderr): StepBar | undefined {
  if (!stream.isTTY) return undefined;
  const bar = terminalBar(label, unit, stream);
  let total = 0;
  let value = 0;
  return {
    expect(steps) {
      total += steps;
      bar.setTotal(Math.max(total, value));
    },
    working(what) {
      bar.update(value, what);
    },
    done(steps = 1) {
      value += steps;
      bar.update(value);
    },
    stop() {
      bar.stop();
    },
  };
}

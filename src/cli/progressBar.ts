// Progress bars on stderr when it is a terminal; nothing otherwise, so cron mail and piped logs
// stay clean. Log lines print above them (src/cli/terminal.ts). createProgressBar counts records
// (an ingest: those fetched of those the first pages announced, then the work after the last one,
// named: storing, publishing); createStepBar counts steps (an export's statements, reports and
// chart series), naming the one at work. Both are made only on a terminal,
// and only then is the drawing (cli-progress) loaded: hence async.
import type { Progress } from '../ingest/ingestRates.js';
import type { ExportProgress } from '../report/exportReports.js';
import { loadTerminalBar } from './commands/index.js';
import type { EtaRule } from './terminalBar.js';

export interface ProgressBar extends Progress {
  stop(): void;
}

export interface StepBar extends ExportProgress {
  stop(): void;
}

export async function createProgressBar(label: string, stream: NodeJS.WriteStream = process.stderr): Promise<ProgressBar | undefined> {
  // records are steps of one each: the step bar's counter, without a "working on" label
  const steps = await createStepBar(label, 'records', stream, 'records');
  if (!steps) return undefined;
  let total = 0;
  let value = 0;
  let storing = false;
  return {
    expect(records) {
      total += records;
      if (storing && value < total) {
        steps.working(''); // more records announced after all: no longer only storing
        storing = false;
      }
      steps.expect(records);
    },
    advance(records) {
      value += records;
      // every record announced is in: what follows is writing the last of them (named before the
      // bar reaches 100 %, so that it never stands there unnamed)
      if (value >= total && !storing) {
        steps.working('storing the rates');
        storing = true;
      }
      steps.done(records);
    },
    working: (what) => steps.working(what),
    stop: () => steps.stop(),
  };
}

export async function createStepBar(
  label: string, unit: string, stream: NodeJS.WriteStream = process.stderr, eta: EtaRule = 'steps',
): Promise<StepBar | undefined> {
  if (!stream.isTTY) return undefined;
  const { terminalBar } = await loadTerminalBar();
  const bar = terminalBar(label, unit, stream, eta);
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

// A progress bar on stderr when it is a terminal (records fetched of the records the first pages
// announced); nothing otherwise, so cron mail and piped logs stay clean. Log lines print above it
// (src/cli/terminal.ts).
import type { Progress } from '../ingest/ingestRates.js';
import { terminalBar } from './terminal.js';

export interface ProgressBar extends Progress {
  stop(): void;
}

export function createProgressBar(label: string, stream: NodeJS.WriteStream = process.stderr): ProgressBar | undefined {
  if (!stream.isTTY) return undefined;
  const bar = terminalBar(`${label} [{bar}] {percentage}% | {value}/{total} records | {eta_formatted} left`, stream);
  let total = 0;
  let value = 0;
  return {
    expect(records) {
      total += records;
      bar.setTotal(Math.max(total, value));
    },
    advance(records) {
      value += records;
      bar.update(value);
    },
    stop() {
      bar.stop();
    },
  };
}

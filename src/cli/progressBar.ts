// A progress bar on stderr when it is a terminal (records fetched of records announced);
// nothing otherwise, so cron mail and piped logs stay clean.
import cliProgress from 'cli-progress';
import type { Progress } from '../ingest/ingestRates.js';

export interface ProgressBar extends Progress {
  stop(): void;
}

export function createProgressBar(label: string, stream: NodeJS.WriteStream = process.stderr): ProgressBar | undefined {
  if (!stream.isTTY) return undefined;
  const bar = new cliProgress.SingleBar({
    stream, format: `${label} [{bar}] {percentage}% | {value}/{total} records | {eta_formatted} left`,
    hideCursor: true, clearOnComplete: true, etaBuffer: 50,
  }, cliProgress.Presets.shades_classic);
  let total = 0;
  let value = 0;
  bar.start(0, 0);
  return {
    expect(records) {
      total += records;
      bar.setTotal(total);
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

// `tariffs export`: write the reports (daily and monthly statistics, cheapest windows, negative
// prices) as CSV, Parquet and/or one HTML page: a thin shell over exportReports().
import type { Command } from 'commander';
import { EXPORT_FORMATS, exportReports, type ExportFormat } from '../../report/exportReports.js';
import { UsageError } from '../../errors.js';
import { parseUserDateTime } from '../../time/index.js';
import { configFrom, loggerFor, withConfig, withDb, type CommonFlags } from '../common.js';
import { parsed, tariffCodes } from '../flagRules.js';
import { resolveFormat, writeRows } from '../output.js';
import { action } from '../run.js';
import { createStepBar } from '../progressBar.js';

interface ExportFlags extends Omit<CommonFlags, 'format'> {
  out: string;
  tariff?: string[];
  from?: Date;
  to?: Date;
  format?: ExportFormat[];
}

export function configure(command: Command): void {
  command
    .requiredOption('--out <dir>', 'directory to write into (created if missing)')
    .option('--tariff <code>', 'a tariff to export (repeatable; default: every tariff with half-hourly prices)', tariffCodes)
    .option('--from <when>', 'window start: ISO datetime with offset, a date (Europe/London day start), or naive Europe/London time',
      parsed('--from', parseUserDateTime))
    .option('--to <when>', 'window end (exclusive), same forms as --from', parsed('--to', parseUserDateTime))
    .option('--format <formats>', `${EXPORT_FORMATS.join('|')} (repeatable or comma-separated; default csv)`, exportFormats);
  withConfig(withDb(command));
  command.addHelpText('after', `
Files (one per report, every selected tariff in it, with a tariff_code column):
  daily_stats, cheapest_1h_per_day, cheapest_2h_per_day, cheapest_4h_per_day,
  negative_slots, negative_runs, monthly_stats  (.csv and/or .parquet), report.html
Each file is written under a temporary name and renamed: readers never see half a file, and
exporting the same data again gives byte-identical files. Times are Europe/London with offset.
Columns: README.md, section Exports.
On a terminal, a progress bar on stderr counts the statements run (the scope, the costs, the page's
queries), then the reports and the HTML page's series as they are written. Prints the files written (path, rows, format). Exit status: 0 written, 1 no data for a tariff
or an unwritable --out, 2 bad usage, 75 the database stayed busy.`);
  command.action(action(async (flags: ExportFlags) => {
    const config = await configFrom({ db: flags.db, config: flags.config });
    const logger = await loggerFor(config, flags);
    const progress = await createStepBar('export', 'steps');
    let files;
    try {
      ({ files } = await exportReports({
        paymentMethod: config.paymentMethod,
        db: config.db,
        outDir: flags.out,
        formats: flags.format ?? ['csv'],
        ...(flags.tariff ? { tariffs: flags.tariff } : {}),
        ...(flags.from === undefined ? {} : { from: flags.from }),
        ...(flags.to === undefined ? {} : { to: flags.to }),
        logger,
        ...(progress ? { progress } : {}),
      }));
    } finally {
      progress?.stop();
    }
    writeRows(files, resolveFormat(undefined), undefined, false, { answer: ['path'], key: ['rows'] });
  }));
}

/** A repeatable, comma-separated --format: each one of EXPORT_FORMATS, in the order given. */
function exportFormats(text: string, previous: ExportFormat[] = []): ExportFormat[] {
  const formats = text.split(',').map((f) => f.trim()).filter((f) => f !== '');
  for (const f of formats) {
    if (!(EXPORT_FORMATS as readonly string[]).includes(f)) throw new UsageError(`--format: '${f}' is not one of ${EXPORT_FORMATS.join(', ')}`);
  }
  return [...previous, ...formats as ExportFormat[]];
}

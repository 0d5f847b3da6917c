// `tariffs export`: write the reports (daily and monthly statistics, cheapest windows, negative
// prices) as CSV, Parquet and/or one HTML page: a thin shell over exportReports().
import type { Command } from 'commander';
import { parseTariffCode } from '../../api/tariffCodes.js';
import { EXPORT_FORMATS, exportReports, type ExportFormat } from '../../report/exportReports.js';
import { UsageError } from '../../errors.js';
import { parseUserDateTime } from '../../time/index.js';
import { collect, configFrom, loggerFor, withConfig, withDb, type CommonFlags } from '../common.js';
import { resolveFormat, writeRows } from '../output.js';
import { action } from '../run.js';
import { createStepBar } from '../progressBar.js';

interface ExportFlags extends Omit<CommonFlags, 'format'> {
  out: string;
  tariff?: string[];
  from?: string;
  to?: string;
  format?: string[];
}

export function register(program: Command): void {
  const command = program
    .command('export')
    .description('write the reports (daily/monthly statistics, cheapest windows, negative prices; monthly costs and tariff comparisons when consumption is stored) as CSV, Parquet or HTML')
    .requiredOption('--out <dir>', 'directory to write into (created if missing)')
    .option('--tariff <code>', 'a tariff to export (repeatable; default: every tariff with half-hourly prices)', collect)
    .option('--from <when>', 'window start: ISO datetime with offset, a date (Europe/London day start), or naive Europe/London time')
    .option('--to <when>', 'window end (exclusive), same forms as --from')
    .option('--format <formats>', `${EXPORT_FORMATS.join('|')} (repeatable or comma-separated; default csv)`, collect);
  withConfig(withDb(command));
  command.addHelpText('after', `
Files (one per report, every selected tariff in it, with a tariff_code column):
  daily_stats, cheapest_1h_per_day, cheapest_2h_per_day, cheapest_4h_per_day,
  negative_slots, negative_runs, monthly_stats  (.csv and/or .parquet), report.html
Each file is written under a temporary name and renamed: readers never see half a file, and
exporting the same data again gives byte-identical files. Times are Europe/London with offset.
Columns: README.md, section Exports.
On a terminal, a progress bar on stderr counts the reports and the HTML page's series as they are
written. Prints the files written (path, rows, format). Exit status: 0 written, 1 no data for a tariff
or an unwritable --out, 2 bad usage, 75 the database stayed busy.`);
  command.action(action(async (flags: ExportFlags) => {
    const config = configFrom({ db: flags.db, config: flags.config });
    const logger = loggerFor(config, flags);
    const formats = (flags.format ?? ['csv']).flatMap((f) => f.split(',')).map((f) => f.trim()).filter((f) => f !== '');
    for (const f of formats) {
      if (!(EXPORT_FORMATS as readonly string[]).includes(f)) {
        throw new UsageError(`--format: '${f}' is not one of ${EXPORT_FORMATS.join(', ')}`);
      }
    }
    for (const code of flags.tariff ?? []) parseTariffCode(code, '--tariff');
    const progress = createStepBar('export', 'steps');
    let files;
    try {
      ({ files } = await exportReports({
        paymentMethod: config.paymentMethod,
        db: config.db,
        outDir: flags.out,
        formats: formats as ExportFormat[],
        ...(flags.tariff ? { tariffs: flags.tariff } : {}),
        ...(flags.from === undefined ? {} : { from: userTime(flags.from, '--from') }),
        ...(flags.to === undefined ? {} : { to: userTime(flags.to, '--to') }),
        logger,
        ...(progress ? { progress } : {}),
      }));
    } finally {
      progress?.stop();
    }
    writeRows(files, resolveFormat(undefined), undefined, false, { answer: ['path'], key: ['rows'] });
  }));
}

/** A bad --from/--to is a usage error (exit 2), not a failure. */
function userTime(text: string, flag: string): Date {
  try {
    return parseUserDateTime(text, flag);
  } catch (error) {
    throw new UsageError((error as Error).message, { cause: error });
  }
}

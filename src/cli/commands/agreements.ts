// `tariffs agreements import FILE`: which tariff each meter was on when, from a CSV or Parquet file
// (the agreements the account endpoint stores for `ingest --account`), whole or not at all.
import type { Command } from 'commander';
import { importAgreementsFile } from '../../ingest/importAgreementsFile.js';
import { assertReadable } from '../../ingest/tableFile.js';
import { WriteSession } from '../../store/WriteSession.js';
import { busyTimeoutMsOf, configFrom, loggerFor, withBusyTimeout, withConfig, withDb, withFormat, type CommonFlags } from '../common.js';
import { resolveFormat, writeRows } from '../output.js';
import { action } from '../run.js';

interface ImportFlags extends CommonFlags {
  busyTimeout?: number;
}

export function configure(agreements: Command): void {
  const importCommand = agreements
    .command('import')
    .description("store the agreements of a CSV or Parquet file: each meter's replace its stored ones; on any bad row, none")
    .argument('<file>', 'CSV or Parquet file');
  withBusyTimeout(withFormat(withConfig(withDb(importCommand))));
  importCommand.addHelpText('after', `
Columns (CSV header or Parquet schema; case does not matter, other columns are ignored):
  meter_point,tariff_code,valid_from,valid_to
  1200000000001,E-1R-AGILE-24-10-01-C,2024-01-01T00:00:00Z,2024-07-01T00:00:00+01:00
  1200000000001,E-1R-VAR-22-11-01-C,2024-07-01T00:00:00+01:00,
An agreement holds over [valid_from, valid_to); an empty valid_to is open-ended. Times need an offset
(Parquet: TIMESTAMP WITH TIME ZONE or text). A meter's agreements may not overlap. For each meter the
file names, the file's agreements replace the stored ones (as ingest --account does with the account's
list); a meter whose stored agreements equal the file's is left as it is, so re-importing changes
nothing. A meter point not stored yet is added, its fuel and direction those of its latest tariff; a
tariff of another fuel or direction than its meter's is refused. A bad row fails the import naming
its line (CSV) or row (Parquet, 1-based) and column; nothing of the file is stored.
Prints {layout, rows, meters, meters_replaced, meters_unchanged, meter_points_added}.
Exit status: 0 stored, 1 a bad row or failure, 2 bad usage, 75 database busy.`);
  importCommand.action(action(async (file: string, flags: ImportFlags) => {
    const format = resolveFormat(flags.format);
    const config = await configFrom(flags);
    assertReadable(file, 'agreements file');
    const logger = (await loggerFor(config, flags)).child({ job: 'agreements-import' });
    const session = await WriteSession.open(config.db, { logger, busyTimeoutMs: busyTimeoutMsOf(flags), purpose: 'agreements-import' });
    try {
      const summary = await importAgreementsFile(session.warehouse, { path: file, source: file, logger });
      await session.publish();
      writeRows([{ ...summary }], format);
    } finally {
      session.close();
    }
  }));
}

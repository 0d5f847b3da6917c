// `tariffs consumption import FILE|- [--meter MPAN:SERIAL] [--export] [--gas] [--unit kwh|m3]`: a
// supplier (or plain) CSV of one meter, or a long CSV/Parquet file of many, whole or not at all.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import { UsageError } from '../../errors.js';
import { importConsumptionFile } from '../../ingest/importConsumptionFile.js';
import { importConsumptionLong, isLongFile } from '../../ingest/importConsumptionLong.js';
import { assertReadable } from '../../ingest/tableFile.js';
import { parseMeter, type MeterRef } from '../../ingest/parseMeter.js';
import { WriteSession } from '../../store/WriteSession.js';
import { busyTimeoutMsOf, configFrom, loggerFor, withBusyTimeout, withConfig, withDb, withFormat, type CommonFlags } from '../common.js';
import { rule } from '../flagRules.js';
import { resolveFormat, writeRows } from '../output.js';
import { action } from '../run.js';

interface ImportFlags extends CommonFlags {
  meter?: Required<MeterRef>;
  export?: boolean;
  gas?: boolean;
  unit?: 'kWh' | 'm3';
  busyTimeout?: number;
}

export function configure(consumption: Command): void {
  const importCommand = consumption
    .command('import')
    .description('store a consumption CSV of one meter, or a long CSV/Parquet file of many: all rows or, on any bad row, none')
    .argument('<file>', "CSV or Parquet file, or '-' for stdin (CSV)")
    .option('--meter <MPAN:SERIAL>', 'the meter the readings belong to (gas: MPRN:SERIAL); required for a one-meter CSV, refused for a long file',
      (text: string) => parseMeter(text, '--meter', true) as Required<MeterRef>)
    .option('--export', 'an export meter (generation sold; its cost is an earning); for a long file, every meter in it')
    .addOption(new Option('--gas', 'a gas meter point (MPRN); for a long file, every meter in it').conflicts('export'))
    .option('--unit <unit>', 'a one-meter CSV\'s unit: kwh (default) or m3 (gas meters that report volume)', unitOf);
  rule<ImportFlags>(importCommand, (f) => f.unit === 'm3' && !f.gas, '--unit m3: only gas meters report m³ (add --gas)');
  withBusyTimeout(withFormat(withConfig(withDb(importCommand))));
  importCommand.addHelpText('after', `
One meter (--meter MPAN:SERIAL): a CSV with one of these headers (case and spaces after commas do not matter):
  Consumption (kwh), Estimated Cost Inc. Tax (p), Standing Charge Inc. Tax (p), Start, End
  Consumption (kWh), Start, End                  (older dashboard exports)
  interval_start,kwh                             (plain)
Many meters (no --meter): a long file, CSV whose header has meter_point, or Parquet, with the columns
  meter_point, interval_start, kwh and optionally serial (other columns are ignored), e.g.
  meter_point,serial,interval_start,kwh
  1200000000001,S1,2024-01-01T00:00:00+00:00,0.25
  Parquet: interval_start TIMESTAMP WITH TIME ZONE or text, kwh a number or text. Without serial (or an
  empty cell) readings are stored under serial ''. --gas/--export apply to every meter of the file;
  meters not stored yet are added to meter_points. The file is read by DuckDB (bounded memory); stdin
  is copied to a temporary file first. A bad row is named by its line (CSV) or row (Parquet, 1-based).
Times need an offset (2024-03-31T02:00:00+01:00, …Z); they are stored in UTC, one row per half-hour,
unique on (meter point, serial, interval_start): re-importing a file changes nothing, a corrected
reading replaces the stored one (the old value is kept in consumption_revisions). The supplier's
estimated cost columns are kept (supplier_cost_inc_vat, supplier_standing_charge_inc_vat).
m³ is converted with kWh = m³ × 1.02264 × CV ÷ 3.6 (config gas.calorific_value, default 39.5).
A bad row fails the import naming its line and column; nothing of the file is stored.
Prints {run_id, meter_point, serial, layout, rows, inserted, updated, unchanged, first_interval_start,
last_interval_end}; a long file {run_id, layout (long-csv or long-parquet), meters, rows, inserted,
updated, unchanged, first_interval_start, last_interval_end}. Exit status: 0 stored, 1 a bad row or failure, 2 bad usage, 75 database busy.`);
  importCommand.action(action(async (file: string, flags: ImportFlags) => {
    const unit = flags.unit ?? 'kWh';
    const format = resolveFormat(flags.format);
    const config = await configFrom(flags);
    if (file !== '-') {
      assertReadable(file, 'consumption file');
      if (isLongFile(file)) return importLong(file, file, flags, format);
    }
    const text = await readInput(file);
    if (file === '-' && csvHeaderOf(text).includes('meter_point')) {
      const dir = mkdtempSync(join(tmpdir(), 'tariffs-stdin-'));
      try {
        writeFileSync(join(dir, 'stdin.csv'), text);
        return await importLong(join(dir, 'stdin.csv'), 'stdin', flags, format);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    const meter = flags.meter;
    if (!meter) throw new UsageError(`--meter MPAN:SERIAL is required for a one-meter CSV (${file === '-' ? 'stdin' : file} has no meter_point column)`);
    const logger = (await loggerFor(config, flags)).child({ job: 'consumption-import' });
    const session = await WriteSession.open(config.db, { logger, busyTimeoutMs: busyTimeoutMsOf(flags), purpose: 'consumption-import' });
    try {
      const summary = await importConsumptionFile(session.warehouse, {
        text, source: file === '-' ? 'stdin' : file, meter, isExport: flags.export === true,
        fuel: flags.gas ? 'gas' : 'electricity', unit, calorificValue: config.gasCalorificValue, logger,
      });
      await session.publish();
      writeRows([{ ...summary }], format);
    } finally {
      session.close();
    }
  }));
}

/** DuckDB's memory limit while a long file is staged, checked and merged: every step spills beyond
 *  it (consumption has no key index since migration 016; bench/README.md, "Long consumption files"). */
const LONG_IMPORT_MEMORY_LIMIT = '3GB';

async function importLong(path: string, source: string, flags: ImportFlags, format: ReturnType<typeof resolveFormat>): Promise<void> {
  if (flags.meter) throw new UsageError(`--meter: ${source} is a long file that names its meters in its meter_point column; drop --meter`);
  if (flags.unit === 'm3') throw new UsageError(`--unit m3: ${source} is a long file, whose kwh column is in kWh`);
  const config = await configFrom(flags);
  const logger = (await loggerFor(config, flags)).child({ job: 'consumption-import' });
  const session = await WriteSession.open(config.db, { logger, busyTimeoutMs: busyTimeoutMsOf(flags), purpose: 'consumption-import' });
  try {
    await session.warehouse.run(`SET memory_limit = '${LONG_IMPORT_MEMORY_LIMIT}'`);
    const summary = await importConsumptionLong(session.warehouse, {
      path, source, isExport: flags.export === true, fuel: flags.gas ? 'gas' : 'electricity', logger,
    });
    await session.publish();
    writeRows([{ ...summary }], format);
  } finally {
    session.close();
  }
}

const csvHeaderOf = (text: string) => text.slice(0, text.indexOf('\n') + 1 || text.length).toLowerCase().split(',').map((c) => c.trim().replace(/^\uFEFF|"/g, ''));

function unitOf(text: string): 'kWh' | 'm3' {
  if (text.toLowerCase() === 'kwh') return 'kWh';
  if (text.toLowerCase() === 'm3') return 'm3';
  throw new UsageError(`--unit: '${text}' is not one of kwh, m3`);
}

async function readInput(file: string): Promise<string> {
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`consumption file ${code === 'ENOENT' ? 'not found' : `cannot be read (${code ?? String(error)})`}: ${file}`, { cause: error });
  }
}

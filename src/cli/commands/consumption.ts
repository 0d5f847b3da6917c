// `tariffs consumption import FILE|- --meter MPAN:SERIAL [--export] [--gas] [--unit kwh|m3]`: a
// supplier (or plain) consumption CSV into the warehouse, whole or not at all.
import { readFile } from 'node:fs/promises';
import { Option, type Command } from 'commander';
import { UsageError } from '../../errors.js';
import { importConsumptionFile } from '../../ingest/importConsumptionFile.js';
import { parseMeter, type MeterRef } from '../../ingest/parseMeter.js';
import { WriteSession } from '../../store/WriteSession.js';
import { busyTimeoutMsOf, configFrom, loggerFor, withBusyTimeout, withConfig, withDb, withFormat, type CommonFlags } from '../common.js';
import { rule } from '../flagRules.js';
import { resolveFormat, writeRows } from '../output.js';
import { action } from '../run.js';

interface ImportFlags extends CommonFlags {
  meter: Required<MeterRef>;
  export?: boolean;
  gas?: boolean;
  unit?: 'kWh' | 'm3';
  busyTimeout?: number;
}

export function configure(consumption: Command): void {
  const importCommand = consumption
    .command('import')
    .description('store a consumption CSV for one meter: all rows or, on any bad row, none')
    .argument('<file>', "CSV file, or '-' for stdin")
    .requiredOption('--meter <MPAN:SERIAL>', 'the meter the readings belong to (gas: MPRN:SERIAL)',
      (text: string) => parseMeter(text, '--meter', true) as Required<MeterRef>)
    .option('--export', 'an export meter (generation sold; its cost is an earning)')
    .addOption(new Option('--gas', 'a gas meter point (MPRN)').conflicts('export'))
    .option('--unit <unit>', 'the file\'s unit: kwh (default) or m3 (gas meters that report volume)', unitOf);
  rule<ImportFlags>(importCommand, (f) => f.unit === 'm3' && !f.gas, '--unit m3: only gas meters report m³ (add --gas)');
  withBusyTimeout(withFormat(withConfig(withDb(importCommand))));
  importCommand.addHelpText('after', `
Accepted headers (case and spaces after commas do not matter):
  Consumption (kwh), Estimated Cost Inc. Tax (p), Standing Charge Inc. Tax (p), Start, End
  Consumption (kWh), Start, End                  (older dashboard exports)
  interval_start,kwh                             (plain)
Times need an offset (2024-03-31T02:00:00+01:00, …Z); they are stored in UTC, one row per half-hour,
unique on (meter point, serial, interval_start): re-importing a file changes nothing, a corrected
reading replaces the stored one (the old value is kept in consumption_revisions). The supplier's
estimated cost columns are kept (supplier_cost_inc_vat, supplier_standing_charge_inc_vat).
m³ is converted with kWh = m³ × 1.02264 × CV ÷ 3.6 (config gas.calorific_value, default 39.5).
A bad row fails the import naming its line and column; nothing of the file is stored.
Prints {run_id, meter_point, serial, layout, rows, inserted, updated, unchanged, first_interval_start,
last_interval_end}. Exit status: 0 stored, 1 a bad row or failure, 2 bad usage, 75 database busy.`);
  importCommand.action(action(async (file: string, flags: ImportFlags) => {
    const meter = flags.meter;
    const unit = flags.unit ?? 'kWh';
    const format = resolveFormat(flags.format);
    const config = configFrom(flags);
    const text = await readInput(file);
    const logger = loggerFor(config, flags).child({ job: 'consumption-import' });
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

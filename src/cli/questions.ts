// What the commands asking the warehouse a question share (cheapest, slots, daily, cost, …): the
// range flags and their help, the read-only warehouse a question runs on, and how rows are printed.
import type { Command } from 'commander';
import { rollingStart, type Range } from '../analytics/index.js';
import { Warehouse } from '../store/Warehouse.js';
import { parseUserDateTime } from '../time/index.js';
import { configFrom, formatOf, loggerFor, type CommonFlags } from './common.js';
import { writeRows, type OutputFormat, type Row } from './output.js';
import type { TableLayout } from './table.js';

export interface RangeFlags extends CommonFlags {
  from?: string;
  to?: string;
}

export interface TariffFlags extends RangeFlags {
  tariff?: string;
}

export const WHEN = 'a date (a Europe/London day), naive Europe/London time (2024-03-31T16:00) or an instant with offset';

export const FORMS = `
--from/--to take a date (the start of that Europe/London local day), a naive Europe/London
time such as 2024-03-31T16:00, or an instant with an offset (2024-03-31T15:00Z); --to is exclusive.
JSON output is an array of objects: instants are UTC (…Z), local_start/local_end are Europe/London
wall times with offset (2024-10-27T01:30:00+00:00), prices are p/kWh. Exit status: 0 answered
(possibly with no rows), 1 no prices stored for the tariff in the range (or, with --complete, not
every half-hour of it), 2 bad usage, 3 (cheapest/slots --check) now is not inside a block of the
selection (moved by --offset).`;

/** `--from` and `--to` of a question over a range of instants, by default everything stored. */
export function withStoredRange(command: Command): Command {
  return command
    .option('--from <when>', `range start (default: everything stored); ${WHEN}`)
    .option('--to <when>', 'range end, exclusive (default: everything stored)');
}

/** `--tariff` (default: every stored tariff), `--from` and `--to` of a question over local days. */
export function withTariffDays(command: Command, from = `first day (default: everything stored); ${WHEN}`): Command {
  return command
    .option('--tariff <code>', 'one tariff (default: every stored tariff)')
    .option('--from <when>', from)
    .option('--to <when>', 'end, exclusive (default: everything stored)');
}

export async function withWarehouse<T>(flags: CommonFlags, fn: (warehouse: Warehouse, format: OutputFormat) => Promise<T>): Promise<T> {
  const config = await configFrom(flags);
  const format = formatOf(flags);
  const warehouse = await Warehouse.open(config.db, { readOnly: true, logger: await loggerFor(config, flags) });
  try {
    return await fn(warehouse, format);
  } finally {
    warehouse.close();
  }
}

/** Prices come rounded from SQL (4 decimals, as in the exports); a table shows 2 (src/cli/table.ts). */
export function output(rows: object[], format: OutputFormat, layout?: TableLayout): void {
  writeRows(rows as Row[], format, undefined, false, layout);
}

/** With `now`, an absent --from (or `--from now`) is the rolling start: see rollingStart. */
export function rangeOf(flags: RangeFlags & { minRemaining?: number }, now?: Date): Range {
  const range: Range = {};
  const rolling = now !== undefined && (flags.from === undefined || isNow(flags.from));
  const from = rolling ? rollingStart(now, flags.minRemaining ?? 0) : flags.from === undefined ? undefined : parseUserDateTime(flags.from, '--from');
  if (from) range.from = from;
  if (flags.to !== undefined) range.to = parseUserDateTime(flags.to, '--to');
  return range;
}

/** `--from now`, in any case. */
export function isNow(from: string): boolean {
  return from.trim().toLowerCase() === 'now';
}

export function tariffOf(flags: TariffFlags): { tariff?: string } {
  return flags.tariff === undefined ? {} : { tariff: flags.tariff };
}

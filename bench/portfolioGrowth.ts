// The growth bench's portfolio steps: `tariffs compare --all-meters` under 3 tariffs as a person runs
// it (the CLI in its own process, CSV into a file) and the hand-written set-wise SQL for the same rows
// (handPortfolio.ts, a bare script), each measured from outside, their answers checked equal.
import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { packageRoot } from '../src/paths.js';
import { FROM, TO } from './costBench.js';
import { measureNode, type Measured } from './processes.js';

/** The tariffs buildPricedWarehouse writes (buildWarehouse's codes), the first the meters' agreement. */
export const benchTariffs = (count: number): string[] =>
  Array.from({ length: count }, (_, k) => `E-1R-BENCH-${String(k).padStart(3, '0')}-A`);

const cli = () => join(packageRoot(), 'dist', 'src', 'cli', 'main.js');
const hand = () => join(packageRoot(), 'dist', 'bench', 'handPortfolio.js');

/** `tariffs compare --all-meters --tariff …` over the year the meters were written for. */
export function compareAllMeters(db: string, tariffs: string[], out: string, limitSeconds: number): Promise<Measured> {
  return measureNode(cli(), ['compare', '--all-meters', ...tariffs.flatMap((t) => ['--tariff', t]),
    '--from', FROM.slice(0, 10), '--to', TO.slice(0, 10), '--db', db, '--format', 'csv'], { stdoutFile: out, limitSeconds });
}

export function handwrittenPortfolio(db: string, tariffs: string[], out: string, limitSeconds: number): Promise<Measured> {
  return measureNode(hand(), [db, out, FROM, TO, ...tariffs], { stdoutFile: `${out}.stdout`, limitSeconds });
}

/** Rows of the CLI's CSV and the hand-written one, and how many differ (a row of one missing from
 *  the other, or a figure apart by more than rounding: both are rounded to 4 decimals). */
export async function compareAnswers(cliCsv: string, handCsv: string): Promise<{ rows: number; handRows: number; different: number }> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const read = (file: string) => `read_csv('${file.replaceAll("'", "''")}', header = true, types = {'meter_point': 'VARCHAR'})`;
    const apart = (column: string) => `abs(c.${column} - h.${column}) > 1e-3 + 1e-9 * abs(h.${column})`;
    const reader = await connection.runAndReadAll(`
      SELECT count(c.meter_point) AS rows, count(h.meter_point) AS hand_rows,
             count(*) FILTER (WHERE c.meter_point IS NULL OR h.meter_point IS NULL OR c.days <> h.days
               OR ${['kwh', 'energy_cost_inc_vat', 'standing_charge_inc_vat', 'total_inc_vat', 'total_exc_vat'].map(apart).join(' OR ')}
               OR c.missing_prices <> h.missing_prices OR c.missing_readings <> h.missing_readings
               OR c.missing_half_hours <> h.missing_half_hours OR c.complete <> h.complete) AS different
      FROM ${read(cliCsv)} AS c FULL JOIN ${read(handCsv)} AS h ON c.meter_point = h.meter_point AND c.scenario = h.scenario`);
    const [rows, handRows, different] = reader.getRowsJS()[0]!.map(Number) as [number, number, number];
    return { rows, handRows, different };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

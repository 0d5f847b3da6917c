// A warehouse for `compare --ahead` (issue 55): region J meters (import, export, gas and two with
// short histories) with deterministic readings across 2023's two clock changes, and tariffs of every
// kind the rule prices: real Agile J prices (data/sandbox, see realAgilePrices.ts), a fixed tariff
// whose standing charge changes, a two-rate tariff stored a day at a time, a variable one, gas, and
// export (fixed and half-hourly). Written with SQL into a temp file; the same rows go to the brute force.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Warehouse } from '../../src/store/Warehouse.js';
import { HH, addDays, londonInstant, londonTime, type BruteTariff, type Rate } from './aheadBruteForce.js';
import { regionJPrices } from './realAgilePrices.js';

export const IMPORT = '1900000000001';
export const EXPORT = '1900000000002';
export const GAS = '3900000001';
export const SHORT = '1900000000003';
export const WEEKDAYS_ONLY = '1900000000004';

export const AGILE = 'E-1R-AGILE-18-02-21-J';
export const FIX = 'E-1R-TEST-FIX-23-01-01-J';
export const GO = 'E-1R-TEST-GO-23-01-01-J';
export const VAR = 'E-1R-TEST-VAR-23-01-01-J';
export const WITHDRAWN = 'E-1R-TEST-OLD-22-01-01-J';
export const BUSINESS = 'E-1R-TEST-BIZ-23-01-01-J';
export const OTHER_REGION = 'E-1R-TEST-FIX-23-01-01-A';
export const GAS_FIX = 'G-1R-TEST-FIX-23-01-01-J';
export const GAS_VAR = 'G-1R-TEST-VAR-23-01-01-J';
export const OUT_FIX = 'E-1R-TEST-OUT-FIX-23-01-01-J';
export const OUT_AGILE = 'E-1R-TEST-OUT-AGILE-23-01-01-J';

const READ_FROM = Date.parse('2022-09-01T00:00:00Z');
const READ_TO = Date.parse('2023-11-20T00:00:00Z');
const ms = (iso: string) => Date.parse(iso);

function noise(slot: number, seed: number): number {
  return (((slot * 2654435761 + seed * 40503) >>> 0) % 1000) / 1000;
}
/** kWh (or gas kWh) of a half-hour: evening peak, weekends higher, a little noise. */
export function reading(channel: 'import' | 'export' | 'gas', start: number): number {
  const hour = Number(londonTime(start).slice(0, 2));
  const slot = Math.floor(start / HH);
  if (channel === 'export') return hour >= 9 && hour < 17 ? Math.round((0.4 + noise(slot, 2)) * 1000) / 1000 : 0;
  const peak = hour >= 17 && hour < 21 ? 0.6 : 0;
  const weekend = [0, 6].includes(new Date(start).getUTCDay()) ? 0.15 : 0;
  const base = channel === 'gas' ? 0.5 + (hour >= 6 && hour < 9 ? 1.2 : 0) : 0.15;
  const season = 1 + 0.3 * Math.cos(((new Date(start).getUTCMonth()) / 12) * 2 * Math.PI); // more in winter
  return Math.round((base + peak + weekend + 0.2 * noise(slot, channel === 'gas' ? 3 : 1)) * season * 1000) / 1000;
}

export interface AheadFixture {
  db: string;
  readings: Record<string, Map<number, number>>;
  tariffs: Record<string, BruteTariff>;
}

const open = (from: string, inc: number, to: string | null = null): Rate => ({ from: ms(from), to: to === null ? null : ms(to), inc });

export async function buildAheadWarehouse(dir: string): Promise<AheadFixture> {
  const readings: Record<string, Map<number, number>> = {
    [IMPORT]: new Map(), [EXPORT]: new Map(), [GAS]: new Map(), [SHORT]: new Map(), [WEEKDAYS_ONLY]: new Map(),
  };
  for (let t = READ_FROM; t < READ_TO; t += HH) {
    readings[IMPORT]!.set(t, reading('import', t));
    readings[EXPORT]!.set(t, reading('export', t));
    readings[GAS]!.set(t, reading('gas', t));
  }
  // an incomplete day: two half-hours unread on Tuesday 2023-10-17
  readings[IMPORT]!.delete(londonInstant('2023-10-17', '12:00'));
  readings[IMPORT]!.delete(londonInstant('2023-10-17', '12:30'));
  // ten days (Friday 2023-10-13 on) and four weekdays (Monday 2023-10-23 to Thursday 26th)
  for (let t = ms('2023-10-12T23:00:00Z'); t < ms('2023-10-22T23:00:00Z'); t += HH) readings[SHORT]!.set(t, reading('import', t));
  for (let t = ms('2023-10-22T23:00:00Z'); t < ms('2023-10-26T23:00:00Z'); t += HH) readings[WEEKDAYS_ONLY]!.set(t, reading('import', t));

  const agile = regionJPrices().filter((p) => p.ms >= ms('2023-01-01T00:00:00Z') && p.ms < ms('2023-11-15T00:00:00Z'))
    .map((p) => ({ from: p.ms, to: p.ms + HH, inc: p.inc }));
  // the two-rate tariff: 9p 00:30-04:30 local, 35p the rest, stored day by day to 2023-11-05
  const go: Rate[] = [];
  for (let d = '2023-01-01'; d < '2023-11-06'; d = addDays(d, 1)) {
    const cheap = londonInstant(d, '00:30');
    const dear = londonInstant(d, '04:30');
    go.push({ from: cheap, to: dear, inc: 9 }, { from: dear, to: londonInstant(addDays(d, 1), '00:30'), inc: 35 });
  }
  const tariffs: Record<string, BruteTariff> = {
    [AGILE]: { code: AGILE, variable: true, rates: agile, standing: [open('2023-01-01T00:00:00Z', 47.6, '2023-04-01T00:00:00+01:00'), open('2023-04-01T00:00:00+01:00', 44.1)] },
    [FIX]: { code: FIX, variable: false, rates: [open('2023-01-01T00:00:00Z', 30.5)], standing: [open('2023-01-01T00:00:00Z', 45, '2023-10-01T00:00:00+01:00'), open('2023-10-01T00:00:00+01:00', 52)] },
    [GO]: { code: GO, variable: true, rates: go, standing: [open('2023-01-01T00:00:00Z', 50)] },
    [VAR]: { code: VAR, variable: true, rates: [open('2023-01-01T00:00:00Z', 34, '2023-04-01T00:00:00+01:00'), open('2023-04-01T00:00:00+01:00', 28.2)], standing: [open('2023-01-01T00:00:00Z', 48)] },
    [WITHDRAWN]: { code: WITHDRAWN, variable: false, rates: [open('2022-01-01T00:00:00Z', 20)], standing: [] },
    [BUSINESS]: { code: BUSINESS, variable: false, rates: [open('2023-01-01T00:00:00Z', 20)], standing: [] },
    [OTHER_REGION]: { code: OTHER_REGION, variable: false, rates: [open('2023-01-01T00:00:00Z', 20)], standing: [] },
    [GAS_FIX]: { code: GAS_FIX, variable: false, rates: [open('2023-01-01T00:00:00Z', 7.4)], standing: [open('2023-01-01T00:00:00Z', 29.1)] },
    [GAS_VAR]: { code: GAS_VAR, variable: true, rates: [open('2023-01-01T00:00:00Z', 6.9)], standing: [open('2023-01-01T00:00:00Z', 31.4)] },
    [OUT_FIX]: { code: OUT_FIX, variable: false, rates: [open('2023-01-01T00:00:00Z', 15)], standing: [] },
    [OUT_AGILE]: { code: OUT_AGILE, variable: true, rates: agile.map((r) => ({ ...r, inc: Math.round(r.inc * 0.55 * 100) / 100 })), standing: [] },
  };
  const products: [string, string, string, boolean, boolean, string | null, string | null][] = [
    // code, direction, display name, variable, business, available_from, available_to
    ['AGILE-18-02-21', 'IMPORT', 'Agile Octopus', true, false, '2018-02-21T00:00:00Z', null],
    ['TEST-FIX-23-01-01', 'IMPORT', 'Test Fixed', false, false, '2023-01-01T00:00:00Z', null],
    ['TEST-GO-23-01-01', 'IMPORT', 'Test Go', true, false, '2023-01-01T00:00:00Z', null],
    ['TEST-VAR-23-01-01', 'IMPORT', 'Test Variable', true, false, '2023-01-01T00:00:00Z', null],
    ['TEST-OLD-22-01-01', 'IMPORT', 'Withdrawn', false, false, '2022-01-01T00:00:00Z', '2023-06-01T00:00:00Z'],
    ['TEST-BIZ-23-01-01', 'IMPORT', 'Business', false, true, '2023-01-01T00:00:00Z', null],
    ['TEST-OUT-FIX-23-01-01', 'EXPORT', 'Test Outgoing Fixed', false, false, '2023-01-01T00:00:00Z', null],
    ['TEST-OUT-AGILE-23-01-01', 'EXPORT', 'Test Agile Outgoing', true, false, '2023-01-01T00:00:00Z', null],
  ];

  const db = join(dir, 'ahead.duckdb');
  const w = await Warehouse.open(db);
  try {
    const seen = "TIMESTAMPTZ '2023-01-01 00:00:00+00'";
    for (const [code, direction, name, variable, business, from, to] of products) {
      await w.run(`INSERT INTO products (code, direction, display_name, is_variable, is_business, available_from, available_to, first_seen_at, last_seen_at)
        VALUES ($code, $direction, $name, $variable, $business, CAST($from AS TIMESTAMPTZ), CAST($to AS TIMESTAMPTZ), ${seen}, ${seen})`,
      { code, direction, name, variable, business, from, to });
    }
    for (const code of Object.keys(tariffs)) {
      const product = code.replace(/^[EG]-1R-/, '').replace(/-[A-P]$/, '');
      await w.run(`INSERT INTO tariffs (tariff_code, product_code, fuel, register, region, payment_method, first_seen_at, last_seen_at)
        VALUES ($code, $product, $fuel, 'single', $region, 'direct_debit_monthly', ${seen}, ${seen})`,
      { code, product, fuel: code.startsWith('G-') ? 'gas' : 'electricity', region: `_${code.slice(-1)}` });
    }
    const rateLines = ['tariff_code,valid_from_ms,valid_to_ms,inc'];
    const standingLines = ['tariff_code,valid_from_ms,valid_to_ms,inc'];
    for (const t of Object.values(tariffs)) {
      for (const r of t.rates) rateLines.push(`${t.code},${r.from},${r.to ?? ''},${r.inc}`);
      for (const r of t.standing) standingLines.push(`${t.code},${r.from},${r.to ?? ''},${r.inc}`);
    }
    const ratesCsv = join(dir, 'rates.csv');
    const standingCsv = join(dir, 'standing.csv');
    writeFileSync(ratesCsv, `${rateLines.join('\n')}\n`);
    writeFileSync(standingCsv, `${standingLines.join('\n')}\n`);
    const columns = "columns = {'tariff_code': 'VARCHAR', 'valid_from_ms': 'BIGINT', 'valid_to_ms': 'BIGINT', 'inc': 'DOUBLE'}";
    await w.run(`INSERT INTO unit_rates (tariff_code, rate_type, valid_from, valid_to, value_exc_vat, value_inc_vat, payment_method,
        local_date, run_id, local_start, utc_offset_minutes, settlement_period, duration_us)
      SELECT tariff_code, 'standard', f, t, inc / 1.05, inc, NULL, london_local(f).local_date, 1, london_local(f).local_start,
             london_local(f).utc_offset_minutes, london_local(f).settlement_period, epoch_us(t) - epoch_us(f)
      FROM (SELECT tariff_code, make_timestamptz(valid_from_ms * 1000) AS f,
                   CASE WHEN valid_to_ms IS NOT NULL THEN make_timestamptz(valid_to_ms * 1000) END AS t, inc
            FROM read_csv($file, header = true, ${columns}))`, { file: ratesCsv });
    // as the ingest keeps them: rates longer than a half-hour or open-ended in long_unit_rates too
    await w.run(`INSERT INTO long_unit_rates SELECT tariff_code, rate_type, valid_from, valid_to, value_exc_vat, value_inc_vat, payment_method
      FROM unit_rates WHERE valid_to IS NULL OR epoch_us(valid_to) - epoch_us(valid_from) <> 1800000000`);
    await w.run(`INSERT INTO standing_charges (tariff_code, valid_from, valid_to, value_exc_vat, value_inc_vat, payment_method, local_date, run_id)
      SELECT tariff_code, f, t, inc / 1.05, inc, NULL, london_local(f).local_date, 1
      FROM (SELECT tariff_code, make_timestamptz(valid_from_ms * 1000) AS f,
                   CASE WHEN valid_to_ms IS NOT NULL THEN make_timestamptz(valid_to_ms * 1000) END AS t, inc
            FROM read_csv($file, header = true, ${columns}))`, { file: standingCsv });

    const meters: [string, 'electricity' | 'gas', boolean, string][] = [
      [IMPORT, 'electricity', false, FIX], [EXPORT, 'electricity', true, OUT_FIX], [GAS, 'gas', false, GAS_VAR],
      [SHORT, 'electricity', false, VAR], [WEEKDAYS_ONLY, 'electricity', false, VAR],
    ];
    const readingLines = ['meter_point,start_ms,kwh'];
    for (const [meter, fuel, isExport, tariff] of meters) {
      await w.run(`INSERT INTO meter_points (meter_point, fuel, is_export, serials, first_seen_at, last_seen_at)
        VALUES ($meter, $fuel, $isExport, ['S1'], ${seen}, ${seen})`, { meter, fuel, isExport });
      await w.run(`INSERT INTO agreements (meter_point, tariff_code, valid_from, valid_to, seen_at)
        VALUES ($meter, $tariff, TIMESTAMPTZ '2023-01-01 00:00:00+00', NULL, ${seen})`, { meter, tariff });
      for (const [start, kwh] of readings[meter]!) readingLines.push(`${meter},${start},${kwh}`);
    }
    const readingsCsv = join(dir, 'readings.csv');
    writeFileSync(readingsCsv, `${readingLines.join('\n')}\n`);
    await w.run(`INSERT INTO consumption (meter_point, serial, interval_start, interval_end, local_date, settlement_period, kwh,
        raw_value, raw_unit, source, run_id)
      SELECT meter_point, 'S1', s, s + INTERVAL 30 MINUTE, london_local(s).local_date, london_local(s).settlement_period, kwh, kwh, 'kWh', 'file', 1
      FROM (SELECT meter_point, make_timestamptz(start_ms * 1000) AS s, kwh
            FROM read_csv($file, header = true, columns = {'meter_point': 'VARCHAR', 'start_ms': 'BIGINT', 'kwh': 'DOUBLE'}))`,
    { file: readingsCsv });
    await w.checkpoint();
  } finally {
    w.close();
  }
  return { db, readings, tariffs };
}

// The sandbox household as a household would meet it (issue 26): the account ingested with
// `--no-consumption` (meter points and agreements, no readings), the import meter's readings
// imported from the supplier's CSV, 2023-08-28 → 2023-11-01 Europe/London (the household's switch
// from Agile J to the variable tariff at 2023-08-31 23:00Z, the fall-back day 2023-10-29), and a
// brute force over the raw rows (unit_rates as stored, the readings as written into the CSV).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { householdReading } from '../../src/sandbox/householdProfile.js';
import { HOUSEHOLD } from '../../src/sandbox/loadSandboxData.js';
import { SANDBOX_ACCOUNT, SANDBOX_API_KEY, startSandbox, type Sandbox } from '../../src/sandbox/startSandbox.js';
import { Warehouse } from '../../src/store/Warehouse.js';
import { runCli } from './runCli.js';

export const HH = 1_800_000;
export const IMPORT = HOUSEHOLD.importMpan;
export const AGILE = 'E-1R-AGILE-18-02-21-J';
export const VAR = 'E-1R-VAR-17-01-11-A';
export const SWITCH_MS = Date.parse(HOUSEHOLD.switchAt);
// Local midnights: 2023-08-28 (BST) → 2023-11-01 (GMT): the switch and the fall-back day inside.
export const FROM_MS = Date.parse('2023-08-27T23:00:00Z');
export const TO_MS = Date.parse('2023-11-01T00:00:00Z');

export type Row = Record<string, unknown>;
/** Set by setUpHousehold(): the temp folder and the warehouse file, and the raw standard unit rates stored. */
export const state = { dir: '', db: '', rates: [] as RawRate[] };
let sandbox: Sandbox | undefined;

// ---- brute force over raw rows -----------------------------------------------------------------
const dateFmt = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });
export const londonDate = (ms: number) => dateFmt.format(new Date(ms));
export const readings = new Map<number, number>();
for (let ms = FROM_MS; ms < TO_MS; ms += HH) readings.set(ms, householdReading('import', ms));

export interface RawRate { tariff_code: string; valid_from: string; valid_to: string | null; value_inc_vat: number; payment_method: string | null }

export function priceOf(tariff: string, ms: number): number | undefined {
  const r = state.rates.find((x) => x.tariff_code === tariff && (x.payment_method === null || x.payment_method === 'DIRECT_DEBIT') &&
    Date.parse(x.valid_from) <= ms && (x.valid_to === null || ms < Date.parse(x.valid_to)));
  return r?.value_inc_vat;
}
export const agreementAt = (ms: number) => (ms < SWITCH_MS ? AGILE : VAR);

export interface BruteDay { date: string; halfHours: number; kwh: number; energy: number; missingPrices: number; missingReadings: number }
/** Each local day whose midnight lies in [fromDayMs, toDayMs), whole; scenario undefined = the agreements. */
export function bruteDays(fromDayMs: number, toDayMs: number, scenario?: string): BruteDay[] {
  const days = new Map<string, BruteDay>();
  for (let ms = fromDayMs; ms < toDayMs; ms += HH) {
    const date = londonDate(ms);
    const day = days.get(date) ?? { date, halfHours: 0, kwh: 0, energy: 0, missingPrices: 0, missingReadings: 0 };
    days.set(date, day);
    day.halfHours++;
    const kwh = readings.get(ms);
    const price = priceOf(scenario ?? agreementAt(ms), ms);
    if (kwh !== undefined) day.kwh += kwh;
    if (kwh === undefined) day.missingReadings++;
    if (price === undefined) day.missingPrices++;
    if (kwh !== undefined && price !== undefined) day.energy += kwh * price;
  }
  return [...days.values()];
}

/** The supplier dashboard's CSV of the import meter, times in UTC as the dashboard writes them. */
export function supplierCsv(): string {
  const lines = ['Consumption (kwh), Estimated Cost Inc. Tax (p), Standing Charge Inc. Tax (p), Start, End'];
  const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
  for (const [ms, kwh] of readings) lines.push(`${kwh}, 0, 0, ${iso(ms)}, ${iso(ms + HH)}`);
  return `${lines.join('\n')}\n`;
}

export async function query(sql: string): Promise<Row[]> {
  const w = await Warehouse.open(state.db, { readOnly: true });
  try {
    return await w.all(sql);
  } finally {
    w.close();
  }
}

export const json = (stdout: string) => JSON.parse(stdout) as Row[];
export const pounds = (pence: number) => Math.round(Number(pence.toFixed(6))) / 100;

/** The household's warehouse: the account ingested with --no-consumption, the import meter's CSV imported. */
export async function setUpHousehold(): Promise<void> {
  sandbox = await startSandbox();
  const dir = mkdtempSync(join(tmpdir(), 'tariffs-household-'));
  const db = join(dir, 'household.duckdb');
  Object.assign(state, { dir, db });
  const ingest = await runCli(['ingest', '--account', SANDBOX_ACCOUNT, '--no-products', '--no-consumption',
    '--from', '2023-08-28', '--to', '2023-11-01', '--db', db, '--base-url', sandbox.baseUrl, '--format', 'json'],
  { env: { TARIFFS_API_KEY: SANDBOX_API_KEY } });
  expect(ingest.code, ingest.stderr).toBe(0);
  expect(json(ingest.stdout)[0]).toMatchObject({ consumption_meters: 0, consumption_inserted: 0 });
  const csv = join(dir, 'consumption.csv');
  writeFileSync(csv, supplierCsv());
  const imported = await runCli(['consumption', 'import', csv, '--meter', `${IMPORT}:${HOUSEHOLD.electricitySerial}`, '--db', db, '--format', 'json']);
  expect(imported.code, imported.stderr).toBe(0);
  state.rates = (await query(`SELECT tariff_code, strftime(valid_from AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ') AS valid_from,
      strftime(valid_to AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ') AS valid_to, value_inc_vat, payment_method
    FROM unit_rates WHERE rate_type = 'standard'`)) as unknown as RawRate[];
}

export async function tearDownHousehold(): Promise<void> {
  await sandbox?.close();
  if (state.dir) rmSync(state.dir, { recursive: true, force: true });
}


// One standing charge a day: a tariff quoting one for DIRECT_DEBIT and one without a payment
// method is charged the Direct Debit one when paying so, the unlabelled one otherwise, never both
// (daily_costs, monthly_costs), through the sandbox, `tariffs ingest` and `tariffs consumption import`.
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { runCli } from './helpers/runCli.js';
import { query, tempDir } from './helpers/warehouseTools.js';

const TARIFF = 'E-1R-STANDING-24-01-01-A';
const METER = '1200000000009:S9';
const UNIT_PRICE = 20;
const KWH = 0.25;
const DIRECT_DEBIT = 50;
const UNLABELLED = 40;

let sandbox: Sandbox;
const tmp = tempDir('tariffs-standing-');
const db = tmp.file('w.duckdb');

const charge = (inc: number, method: string | null) => ({
  valid_from: '2024-01-01T00:00:00Z', valid_to: null, value_inc_vat: inc, value_exc_vat: inc / 1.05, payment_method: method,
});

beforeAll(async () => {
  sandbox = await startSandbox();
  sandbox.addTariff({
    tariffCode: TARIFF,
    rates: [{ valid_from: '2024-01-01T00:00:00Z', valid_to: null, value_inc_vat: UNIT_PRICE, value_exc_vat: UNIT_PRICE / 1.05, payment_method: null }],
    standingCharges: [charge(DIRECT_DEBIT, 'DIRECT_DEBIT'), charge(UNLABELLED, null)],
  });
  const ingest = await runCli(['ingest', '--tariff', TARIFF, '--from', '2024-01-01', '--to', '2024-02-01', '--no-products',
    '--db', db, '--base-url', sandbox.baseUrl, '--format', 'json']);
  expect(ingest.code, ingest.stderr).toBe(0);
  // every half-hour of 2024-01-10 and 2024-01-11 (GMT: local days are UTC days)
  const rows = Array.from({ length: 96 }, (_, i) => `${new Date(Date.UTC(2024, 0, 10) + i * 1_800_000).toISOString()},${KWH}`);
  const csv = tmp.file('readings.csv');
  writeFileSync(csv, `interval_start,kwh\n${rows.join('\n')}\n`);
  const imported = await runCli(['consumption', 'import', '--db', db, '--meter', METER, '--format', 'json', csv]);
  expect(imported.code, imported.stderr).toBe(0);
}, 180_000);
afterAll(async () => {
  await sandbox.close();
  tmp.remove();
});

const days = (payment: string) => query(db, `SELECT CAST(local_date AS VARCHAR) AS day, standing_charge_inc_vat AS standing,
    round(total_inc_vat, 6) AS total, complete
  FROM daily_costs('${METER}', '${TARIFF}', TIMESTAMPTZ '2024-01-10 00:00:00Z', TIMESTAMPTZ '2024-01-12 00:00:00Z', payment := '${payment}')`);

describe('a tariff with a DIRECT_DEBIT and an unlabelled standing charge', () => {
  it('is charged the Direct Debit one once a day when paying by Direct Debit', async () => {
    const energy = 48 * KWH * UNIT_PRICE;
    expect(await days('DIRECT_DEBIT')).toEqual([
      { day: '2024-01-10', standing: DIRECT_DEBIT, total: energy + DIRECT_DEBIT, complete: true },
      { day: '2024-01-11', standing: DIRECT_DEBIT, total: energy + DIRECT_DEBIT, complete: true },
    ]);
  });

  it('is charged the unlabelled one once a day when paying otherwise', async () => {
    const energy = 48 * KWH * UNIT_PRICE;
    expect(await days('NON_DIRECT_DEBIT')).toEqual([
      { day: '2024-01-10', standing: UNLABELLED, total: energy + UNLABELLED, complete: true },
      { day: '2024-01-11', standing: UNLABELLED, total: energy + UNLABELLED, complete: true },
    ]);
  });

  it("month by month: the days' one charge each", async () => {
    const [month] = await query(db, `SELECT standing_charge_inc_vat AS standing
      FROM monthly_costs('${METER}', '${TARIFF}', TIMESTAMPTZ '2024-01-10 00:00:00Z', TIMESTAMPTZ '2024-01-12 00:00:00Z')`);
    expect(month).toEqual({ standing: 2 * DIRECT_DEBIT });
  });
});

// A standing charge that changes at 00:00Z in summer, 01:00 on the London day it changes: that day
// is charged once, the charge in force at its local midnight (the old one), and the new one from
// the next day, through `tariffs cost` per day and per month.
describe('a standing charge changing at 00:00Z in summer', () => {
  const SUMMER = 'E-1R-SUMMER-24-01-01-A';
  const OLD = 40;
  const NEW = 50;

  beforeAll(async () => {
    sandbox.addTariff({
      tariffCode: SUMMER,
      rates: [{ valid_from: '2024-01-01T00:00:00Z', valid_to: null, value_inc_vat: UNIT_PRICE, value_exc_vat: UNIT_PRICE / 1.05, payment_method: null }],
      standingCharges: [
        { valid_from: '2024-01-01T00:00:00Z', valid_to: '2024-07-01T00:00:00Z', value_inc_vat: OLD, value_exc_vat: OLD / 1.05, payment_method: null },
        { valid_from: '2024-07-01T00:00:00Z', valid_to: null, value_inc_vat: NEW, value_exc_vat: NEW / 1.05, payment_method: null },
      ],
    });
    const ingest = await runCli(['ingest', '--tariff', SUMMER, '--from', '2024-06-01', '--to', '2024-08-01', '--no-products',
      '--db', db, '--base-url', sandbox.baseUrl, '--format', 'json']);
    expect(ingest.code, ingest.stderr).toBe(0);
    // every half-hour of the London days 2024-06-30 to 2024-07-02 (BST)
    const start = Date.parse('2024-06-29T23:00:00Z');
    const rows = Array.from({ length: 3 * 48 }, (_, i) => `${new Date(start + i * 1_800_000).toISOString()},${KWH}`);
    const csv = tmp.file('summer.csv');
    writeFileSync(csv, `interval_start,kwh\n${rows.join('\n')}\n`);
    const imported = await runCli(['consumption', 'import', '--db', db, '--meter', METER, '--format', 'json', csv]);
    expect(imported.code, imported.stderr).toBe(0);
  }, 180_000);

  it('charges the day it changes once, at the charge of its local midnight', async () => {
    const energy = 48 * KWH * UNIT_PRICE;
    const cost = (...extra: string[]) => runCli(['cost', '--meter', METER, '--tariff', SUMMER, '--from', '2024-06-30', '--to', '2024-07-03',
      '--db', db, '--format', 'json', ...extra]);
    const [daily, monthly] = await Promise.all([cost(), cost('--per', 'month')]);
    expect(daily.code, daily.stderr).toBe(0);
    const days = JSON.parse(daily.stdout) as { local_date: string; standing_charge_inc_vat: number; total_inc_vat: number }[];
    expect(days.map((d) => [d.local_date, d.standing_charge_inc_vat])).toEqual([['2024-06-30', OLD], ['2024-07-01', OLD], ['2024-07-02', NEW]]);
    days.forEach((d) => expect(d.total_inc_vat).toBeCloseTo(energy + d.standing_charge_inc_vat, 4));
    expect(monthly.code, monthly.stderr).toBe(0);
    expect((JSON.parse(monthly.stdout) as { standing_charge_inc_vat: number }[]).map((m) => m.standing_charge_inc_vat)).toEqual([OLD, OLD + NEW]);
  });
});

// The reads that ask rate_slots_for for a range (it narrows the long rates to the range before
// expanding them to half-hours) answer as rate_slots filtered afterwards, the definition: the
// macro tariffs_with_slots (`status`), the day-ahead facts (`status`, the day-ahead job) and the
// export's check that each --tariff has prices in its range. On the demo's warehouse: half-hourly
// Agile series and open-ended long rates (expanded up to three days past today), clock-change
// days, ranges before, within and after the prices.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayAheadFacts } from '../src/analytics/dayAheadFacts.js';
import { tariffsWithSlotsIn } from '../src/analytics/pricedTariffs.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { localDateOf, localDayBounds } from '../src/time/index.js';
import { copyOfDemoWarehouse } from './helpers/demoWarehouse.js';
import { tempDir } from './helpers/warehouseTools.js';

const tmp = tempDir('tariffs-range-narrowing-');
let warehouse: Warehouse;

beforeAll(async () => {
  await copyOfDemoWarehouse(tmp.file('demo.duckdb'));
  warehouse = await Warehouse.open(tmp.file('demo.duckdb'), { readOnly: true });
}, 600_000);
afterAll(() => {
  warehouse?.close();
  tmp.remove();
});

const tomorrow = localDateOf(new Date(Date.now() + 86_400_000));
/** [from, to) as instants: a spring-forward and a fall-back day, a week of 2019, tomorrow, the day
 *  after the open-ended rates' expansion ends, and a range after every price. */
const RANGES: [string, string][] = [
  ['2024-03-30T23:00:00Z', '2024-03-31T23:00:00Z'],
  ['2023-10-28T23:00:00Z', '2023-10-30T00:00:00Z'],
  ['2019-06-01T00:00:00Z', '2019-06-08T00:00:00Z'],
  [localDayBounds(tomorrow).start.toISOString(), localDayBounds(tomorrow).end.toISOString()],
  [new Date(Date.now() + 5 * 86_400_000).toISOString(), new Date(Date.now() + 6 * 86_400_000).toISOString()],
  ['2100-01-01T00:00:00Z', '2100-02-01T00:00:00Z'],
];

/** The tariffs with a half-hour of rate_slots starting in [from, to), filtered after the expansion. */
async function bruteTariffs(from: string, to: string, among?: string[]): Promise<string[]> {
  const rows = await warehouse.all(`SELECT DISTINCT tariff_code FROM rate_slots
    WHERE slot_start >= CAST($from AS TIMESTAMPTZ) AND slot_start < CAST($to AS TIMESTAMPTZ) ORDER BY 1`, { from, to });
  return rows.map((r) => String(r.tariff_code)).filter((t) => !among || among.includes(t));
}

describe('reads narrowed by rate_slots_for answer as rate_slots filtered afterwards', () => {
  it('tariffs_with_slots, for each range', async () => {
    const seen = new Set<number>();
    for (const [from, to] of RANGES) {
      const rows = await warehouse.all('SELECT tariff_code FROM tariffs_with_slots(CAST($from AS TIMESTAMPTZ), CAST($to AS TIMESTAMPTZ)) ORDER BY 1', { from, to });
      const expected = await bruteTariffs(from, to);
      expect(rows.map((r) => String(r.tariff_code)), `${from} → ${to}`).toEqual(expected);
      seen.add(expected.length);
    }
    // ranges with many tariffs, with some and with none
    expect(Math.max(...seen)).toBeGreaterThan(3);
    expect(seen.has(0)).toBe(true);
  });

  it('the day-ahead facts count each day\'s half-hours as rate_slots has them on that local date', async () => {
    for (const day of ['2024-03-31', '2023-10-29', '2019-06-03', tomorrow]) {
      const facts = await dayAheadFacts(warehouse, day);
      const expected = await warehouse.all(`SELECT t.tariff_code, coalesce(s.stored, 0) AS stored
        FROM (SELECT DISTINCT tariff_code FROM unit_rates) AS t
        LEFT JOIN (SELECT tariff_code, count(DISTINCT slot_start) AS stored FROM rate_slots
                   WHERE local_date = CAST($day AS DATE) GROUP BY tariff_code) AS s USING (tariff_code)`, { day });
      const byTariff = (rows: Record<string, unknown>[]) => Object.fromEntries(rows.map((r) => [String(r.tariff_code), Number(r.stored)]));
      expect(byTariff(facts), day).toEqual(byTariff(expected));
    }
    // a day of 46 half-hours is counted so
    expect((await dayAheadFacts(warehouse, '2024-03-31')).find((r) => r.tariff_code === 'E-1R-AGILE-18-02-21-J')?.stored).toBe(46);
  });

  it('the export\'s check: those of a list with prices in the range', async () => {
    const listed = ['E-1R-AGILE-18-02-21-J', 'E-1R-VAR-17-01-11-A', 'E-2R-VAR-22-11-01-A', 'E-1R-AGILE-18-02-21-A', 'E-1R-NOT-STORED-A'];
    for (const [from, to] of RANGES) {
      const found = await tariffsWithSlotsIn(warehouse, listed, new Date(from), new Date(to));
      expect([...found].sort(), `${from} → ${to}`).toEqual(await bruteTariffs(from, to, listed));
    }
  });
});

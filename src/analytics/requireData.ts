// Tells "nothing there" apart from "nothing qualifies": called when a question came back empty,
// it throws NoDataError if the tariff (or, without one, the warehouse) has no prices in the range.
import { NoDataError } from '../errors.js';
import type { Warehouse } from '../store/Warehouse.js';
import { describeRange, rangeParams, type Range } from './range.js';

export async function requireData(warehouse: Warehouse, tariff: string | undefined, range: Range = {}): Promise<void> {
  // Prices in the range: the usual case, asked of rate_slots_for, which narrows the long rates to
  // the range before expanding them (rate_slots filtered afterwards expands each from its start);
  // one half-hour is enough (without a range, `gaps` asks whether anything is stored at all).
  const found = await warehouse.one(`
    SELECT EXISTS (
        SELECT 1
        FROM rate_slots_for(CASE WHEN $tariff IS NULL THEN NULL ELSE [CAST($tariff AS VARCHAR)] END,
                            CAST($from AS TIMESTAMPTZ), CAST($to AS TIMESTAMPTZ))
        WHERE slot_end <= coalesce(CAST($to AS TIMESTAMPTZ), TIMESTAMPTZ 'infinity')) AS in_range`,
  { tariff: tariff ?? null, ...rangeParams(range) });
  if (found?.in_range === true) return;
  // none in the range: what is stored, for the message
  const row = await warehouse.one(`
    SELECT count(*) AS stored, min(slot_start) AS first_start, max(slot_end) AS last_end
    FROM rate_slots
    WHERE $tariff IS NULL OR tariff_code = $tariff`, { tariff: tariff ?? null });
  const what = tariff === undefined ? 'the warehouse' : `tariff ${tariff}`;
  if (!row || row.stored === 0) {
    throw new NoDataError(`no prices stored for ${what}${tariff === undefined ? '' : ' (`tariffs tariffs` lists the stored ones)'}`);
  }
  throw new NoDataError(`no prices for ${what} ${describeRange(range)} (stored: ${String(row.first_start)} to ${String(row.last_end)})`);
}

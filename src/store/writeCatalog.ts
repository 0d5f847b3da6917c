// Upserts of the products list and the tariffs we know of. first_seen_at survives re-fetches;
// last_seen_at moves forward.
import type { DuckDBValue } from '@duckdb/node-api';
import { valuesList } from './valuesList.js';
import type { Warehouse } from './Warehouse.js';

export interface TariffRow {
  tariffCode: string;
  productCode: string;
  fuel: 'electricity' | 'gas';
  register: 'single' | 'dual';
  region: string | null;
  paymentMethod: string | null;
  rateKinds: string[];
  /** Four-rate EV tariffs: the night rate's daily band, Europe/London wall-clock minutes. */
  nightBand?: { startMinutes: number; endMinutes: number };
}

/** A product as the products list gives it (validated by api/schemas.ts, productSchema): the fields
 *  stored in columns; the whole record is stored as JSON too. */
export interface ProductRecord {
  code: string;
  direction: string;
  full_name: string;
  display_name: string;
  description: string;
  is_variable: boolean;
  is_green: boolean;
  is_tracker: boolean;
  is_prepay: boolean;
  is_business: boolean;
  is_restricted: boolean;
  term: number | null;
  available_from: string;
  available_to: string | null;
  links: unknown[];
  brand: string;
}

export async function upsertProducts(warehouse: Warehouse, products: ProductRecord[], seenAt: Date): Promise<void> {
  if (products.length === 0) return;
  const instant = 'CAST(? AS TIMESTAMPTZ)';
  const seen = 'CAST($seen AS TIMESTAMPTZ)';
  await upsertRows(warehouse, products, (p) => p.code, (p) => [
    p.code, p.direction, p.full_name, p.display_name, p.description, p.is_variable, p.is_green, p.is_tracker,
    p.is_prepay, p.is_business, p.is_restricted, p.term, p.available_from, p.available_to, p.brand,
    JSON.stringify(p.links), JSON.stringify(p),
  ], ['?', '?', '?', '?', '?', '?', '?', '?', '?', '?', '?', '?', instant, instant, '?', 'CAST(? AS JSON)', 'CAST(? AS JSON)', seen, seen],
  { seen: seenAt.toISOString() }, (values) => `INSERT INTO products VALUES ${values}
    ON CONFLICT (code) DO UPDATE SET
      direction = excluded.direction, full_name = excluded.full_name, display_name = excluded.display_name,
      description = excluded.description, is_variable = excluded.is_variable, is_green = excluded.is_green,
      is_tracker = excluded.is_tracker, is_prepay = excluded.is_prepay, is_business = excluded.is_business,
      is_restricted = excluded.is_restricted, term = excluded.term, available_from = excluded.available_from,
      available_to = excluded.available_to, brand = excluded.brand, links = excluded.links, raw = excluded.raw,
      last_seen_at = excluded.last_seen_at`);
}

export async function upsertTariffs(warehouse: Warehouse, tariffs: TariffRow[], seenAt: Date): Promise<void> {
  if (tariffs.length === 0) return;
  const seen = 'CAST($seen AS TIMESTAMPTZ)';
  await upsertRows(warehouse, tariffs, (t) => t.tariffCode, (t) => [
    t.tariffCode, t.productCode, t.fuel, t.register, t.region, t.paymentMethod, JSON.stringify(t.rateKinds),
    t.nightBand?.startMinutes ?? null, t.nightBand?.endMinutes ?? null,
  ], ['?', '?', '?', '?', '?', '?', `from_json(?, '["VARCHAR"]')`, seen, seen, 'CAST(? AS SMALLINT)', 'CAST(? AS SMALLINT)'],
  { seen: seenAt.toISOString() }, (values) => `INSERT INTO tariffs (tariff_code, product_code, fuel, register, region, payment_method,
      rate_kinds, first_seen_at, last_seen_at, night_start_minutes, night_end_minutes) VALUES ${values}
    ON CONFLICT (tariff_code) DO UPDATE SET
      night_start_minutes = coalesce(excluded.night_start_minutes, tariffs.night_start_minutes),
      night_end_minutes = coalesce(excluded.night_end_minutes, tariffs.night_end_minutes),
      product_code = excluded.product_code, fuel = excluded.fuel, register = excluded.register,
      region = excluded.region,
      payment_method = coalesce(excluded.payment_method, tariffs.payment_method),
      rate_kinds = list_distinct(list_concat(tariffs.rate_kinds, excluded.rate_kinds)),
      last_seen_at = excluded.last_seen_at`);
}

const ROWS_PER_STATEMENT = 100;

/** Rows upserted in one transaction, up to ROWS_PER_STATEMENT to a statement (see valuesList). A
 *  key met again starts the next statement, since one statement may not update a row twice:
 *  later rows still apply over earlier ones, in order. */
async function upsertRows<T>(
  warehouse: Warehouse, rows: readonly T[], keyOf: (row: T) => string, valuesOf: (row: T) => DuckDBValue[],
  cells: readonly string[], shared: Record<string, DuckDBValue>, statement: (values: string) => string,
): Promise<void> {
  const statements: T[][] = [[]];
  let keys = new Set<string>();
  for (const row of rows) {
    if (keys.has(keyOf(row)) || statements.at(-1)!.length >= ROWS_PER_STATEMENT) {
      statements.push([]);
      keys = new Set();
    }
    keys.add(keyOf(row));
    statements.at(-1)!.push(row);
  }
  await warehouse.transaction(async () => {
    for (const batch of statements) {
      const values = valuesList(batch.map(valuesOf), cells);
      await warehouse.run(statement(values.sql), { ...values.params, ...shared });
    }
  });
}

/** Drops a tariff from `tariffs` unless rates of it are stored (a code that once existed stays listed). */
export async function forgetTariffWithoutRates(warehouse: Warehouse, tariffCode: string): Promise<void> {
  await warehouse.run(`DELETE FROM tariffs WHERE tariff_code = $code
      AND NOT EXISTS (SELECT 1 FROM unit_rates WHERE tariff_code = $code)`, { code: tariffCode });
}

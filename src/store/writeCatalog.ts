// Upserts of the products list and the tariffs we know of. first_seen_at survives re-fetches;
// last_seen_at moves forward.
import type { Product } from '../api/schemas.js';
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

export async function upsertProducts(warehouse: Warehouse, products: Product[], seenAt: Date): Promise<void> {
  if (products.length === 0) return;
  const seen = seenAt.toISOString();
  await upsertRows(warehouse, products, (p) => p.code, (p, i) => ({
    sql: `($code${i}, $direction${i}, $full_name${i}, $display_name${i}, $description${i}, $is_variable${i}, $is_green${i},
          $is_tracker${i}, $is_prepay${i}, $is_business${i}, $is_restricted${i}, $term${i},
          CAST($available_from${i} AS TIMESTAMPTZ), CAST($available_to${i} AS TIMESTAMPTZ), $brand${i},
          CAST($links${i} AS JSON), CAST($raw${i} AS JSON), CAST($seen AS TIMESTAMPTZ), CAST($seen AS TIMESTAMPTZ))`,
    params: {
      [`code${i}`]: p.code, [`direction${i}`]: p.direction, [`full_name${i}`]: p.full_name, [`display_name${i}`]: p.display_name,
      [`description${i}`]: p.description, [`is_variable${i}`]: p.is_variable, [`is_green${i}`]: p.is_green,
      [`is_tracker${i}`]: p.is_tracker, [`is_prepay${i}`]: p.is_prepay, [`is_business${i}`]: p.is_business,
      [`is_restricted${i}`]: p.is_restricted, [`term${i}`]: p.term, [`available_from${i}`]: p.available_from,
      [`available_to${i}`]: p.available_to, [`brand${i}`]: p.brand, [`links${i}`]: JSON.stringify(p.links),
      [`raw${i}`]: JSON.stringify(p), seen,
    },
  }), (values) => `INSERT INTO products VALUES ${values}
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
  const seen = seenAt.toISOString();
  await upsertRows(warehouse, tariffs, (t) => t.tariffCode, (t, i) => ({
    sql: `($code${i}, $product${i}, $fuel${i}, $register${i}, $region${i}, $payment_method${i},
          from_json($kinds${i}, '["VARCHAR"]'), CAST($seen AS TIMESTAMPTZ), CAST($seen AS TIMESTAMPTZ),
          CAST($night_start${i} AS SMALLINT), CAST($night_end${i} AS SMALLINT))`,
    params: {
      [`code${i}`]: t.tariffCode, [`product${i}`]: t.productCode, [`fuel${i}`]: t.fuel, [`register${i}`]: t.register,
      [`region${i}`]: t.region, [`payment_method${i}`]: t.paymentMethod, [`kinds${i}`]: JSON.stringify(t.rateKinds), seen,
      [`night_start${i}`]: t.nightBand?.startMinutes ?? null, [`night_end${i}`]: t.nightBand?.endMinutes ?? null,
    },
  }), (values) => `INSERT INTO tariffs (tariff_code, product_code, fuel, register, region, payment_method,
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

type Params = Record<string, string | number | boolean | null>;

const ROWS_PER_STATEMENT = 100;

/** Rows upserted in one transaction, up to ROWS_PER_STATEMENT to a statement (a statement costs
 *  a few ms, a row next to nothing: 14 tariffs took 57 ms one by one). A key met again starts the
 *  next statement, since one statement may not update a row twice: later rows still apply over
 *  earlier ones, in order. */
async function upsertRows<T>(
  warehouse: Warehouse, rows: readonly T[], keyOf: (row: T) => string,
  valuesOf: (row: T, i: number) => { sql: string; params: Params }, statement: (values: string) => string,
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
      const values = batch.map((row, i) => valuesOf(row, i));
      await warehouse.run(statement(values.map((v) => v.sql).join(',\n')), Object.assign({}, ...values.map((v) => v.params)) as Params);
    }
  });
}

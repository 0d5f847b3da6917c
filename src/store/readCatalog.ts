// Reads of the stored catalogue the ingest and the scheduler make: rate kinds already known, the
// products list as the last refresh saw it, and which tariffs are stored.
import type { Warehouse } from './Warehouse.js';

/** The stored rate kinds (the product links' rels) of those of `codes` that have any. */
export async function storedRateKinds(warehouse: Warehouse, codes: readonly string[]): Promise<Map<string, string[]>> {
  const rows = await warehouse.all(`SELECT tariff_code, rate_kinds FROM tariffs
    WHERE tariff_code IN (SELECT unnest(from_json($codes, '["VARCHAR"]'))) AND len(rate_kinds) > 0`,
  { codes: JSON.stringify(codes) });
  return new Map(rows.map((row) => [row.tariff_code as string, (row.rate_kinds as string[]).map(String)]));
}

/** The product codes the previous products refresh saw (those it stamped last_seen_at). */
export async function lastListedProducts(warehouse: Warehouse): Promise<Set<string>> {
  return new Set((await warehouse.all(`SELECT code FROM products
      WHERE last_seen_at = (SELECT max(last_seen_at) FROM products)`)).map((r) => String(r.code)));
}

/** Every stored tariff's product and region, by tariff code. */
export async function storedTariffRegions(warehouse: Warehouse): Promise<{ tariff_code: string; product_code: string; region: string | null }[]> {
  return warehouse.all('SELECT tariff_code, product_code, region FROM tariffs ORDER BY tariff_code');
}

/** The tariffs with unit rates stored, by code. */
export async function tariffsWithRates(warehouse: Warehouse): Promise<string[]> {
  return (await warehouse.all('SELECT DISTINCT tariff_code FROM unit_rates ORDER BY tariff_code')).map((r) => r.tariff_code as string);
}

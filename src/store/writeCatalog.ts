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
  await warehouse.transaction(async () => {
    for (const p of products) {
      await warehouse.run(`INSERT INTO products VALUES (
          $code, $direction, $full_name, $display_name, $description, $is_variable, $is_green, $is_tracker,
          $is_prepay, $is_business, $is_restricted, $term, CAST($available_from AS TIMESTAMPTZ),
          CAST($available_to AS TIMESTAMPTZ), $brand, CAST($links AS JSON), CAST($raw AS JSON),
          CAST($seen AS TIMESTAMPTZ), CAST($seen AS TIMESTAMPTZ))
        ON CONFLICT (code) DO UPDATE SET
          direction = excluded.direction, full_name = excluded.full_name, display_name = excluded.display_name,
          description = excluded.description, is_variable = excluded.is_variable, is_green = excluded.is_green,
          is_tracker = excluded.is_tracker, is_prepay = excluded.is_prepay, is_business = excluded.is_business,
          is_restricted = excluded.is_restricted, term = excluded.term, available_from = excluded.available_from,
          available_to = excluded.available_to, brand = excluded.brand, links = excluded.links, raw = excluded.raw,
          last_seen_at = excluded.last_seen_at`, {
        code: p.code, direction: p.direction, full_name: p.full_name, display_name: p.display_name,
        description: p.description, is_variable: p.is_variable, is_green: p.is_green, is_tracker: p.is_tracker,
        is_prepay: p.is_prepay, is_business: p.is_business, is_restricted: p.is_restricted, term: p.term,
        available_from: p.available_from, available_to: p.available_to, brand: p.brand,
        links: JSON.stringify(p.links), raw: JSON.stringify(p), seen,
      });
    }
  });
}

export async function upsertTariffs(warehouse: Warehouse, tariffs: TariffRow[], seenAt: Date): Promise<void> {
  if (tariffs.length === 0) return;
  const seen = seenAt.toISOString();
  await warehouse.transaction(async () => {
    for (const t of tariffs) {
      await warehouse.run(`INSERT INTO tariffs (tariff_code, product_code, fuel, register, region, payment_method,
          rate_kinds, first_seen_at, last_seen_at, night_start_minutes, night_end_minutes) VALUES (
          $code, $product, $fuel, $register, $region, $payment_method, from_json($kinds, '["VARCHAR"]'),
          CAST($seen AS TIMESTAMPTZ), CAST($seen AS TIMESTAMPTZ), CAST($night_start AS SMALLINT), CAST($night_end AS SMALLINT))
        ON CONFLICT (tariff_code) DO UPDATE SET
          night_start_minutes = coalesce(excluded.night_start_minutes, tariffs.night_start_minutes),
          night_end_minutes = coalesce(excluded.night_end_minutes, tariffs.night_end_minutes),
          product_code = excluded.product_code, fuel = excluded.fuel, register = excluded.register,
          region = excluded.region,
          payment_method = coalesce(excluded.payment_method, tariffs.payment_method),
          rate_kinds = list_distinct(list_concat(tariffs.rate_kinds, excluded.rate_kinds)),
          last_seen_at = excluded.last_seen_at`, {
        code: t.tariffCode, product: t.productCode, fuel: t.fuel, register: t.register, region: t.region,
        payment_method: t.paymentMethod, kinds: JSON.stringify(t.rateKinds), seen,
        night_start: t.nightBand?.startMinutes ?? null, night_end: t.nightBand?.endMinutes ?? null,
      });
    }
  });
}

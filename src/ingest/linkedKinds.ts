// Rate kinds from the product detail's links, whatever the tariff code says: Intelligent Octopus
// Go's day/night products carry `-1R-` yet publish only day and night unit rates. A tariff given
// by code (--tariff, an account's agreement) takes the kinds its product's detail named when read
// before (tariffs.rate_kinds), else reads that detail once; without one, the code decides.
import type { Logger } from 'pino';
import { ApiError } from '../api/errors.js';
import type { OctopusClient } from '../api/OctopusClient.js';
import type { ProductDetail } from '../api/schemas.js';
import type { Warehouse } from '../store/Warehouse.js';
import { storedRateKinds } from '../store/readCatalog.js';
import type { RateKind } from '../store/writeRates.js';
import { publishedNightBand } from './publishedNightBand.js';
import type { IngestTarget } from './resolveTargets.js';

const UNIT_KINDS = ['standard', 'day', 'night'] as const;

/** The kinds a detail entry's link names (`standard_unit_rates` …) stand for; `fallback` when
 *  they name no unit rates. Standing charges are always asked for (an optional resource). */
export function kindsFromRels(rels: readonly string[], fallback: RateKind[]): RateKind[] {
  const unit = UNIT_KINDS.filter((k) => rels.includes(`${k}_unit_rates`));
  return unit.length === 0 ? fallback : [...unit, 'standing_charge'];
}

/** A target's kinds and register from link names: day and night rates alone make a two-rate
 *  tariff, with the band its supplier publishes when known (Intelligent Octopus Go: 23:30-05:30). */
export function applyRels(target: IngestTarget, rels: readonly string[]): void {
  target.kinds = kindsFromRels(rels, target.kinds);
  if (!target.kinds.includes('day') || !target.kinds.includes('night') || target.kinds.includes('standard')) return;
  target.register = 'dual';
  const band = target.nightBand ?? publishedNightBand(target.productCode);
  if (band) target.nightBand = band;
}

const TABLES = [
  'single_register_electricity_tariffs', 'dual_register_electricity_tariffs', 'four_rate_ev_electricity_tariffs',
  'single_register_gas_tariffs', 'dual_register_gas_tariffs',
] as const;

/** The link names of `tariffCode`'s entry in a detail, in any table, region and payment method. */
export function relsInDetail(detail: ProductDetail, tariffCode: string): string[] | undefined {
  for (const table of TABLES) {
    for (const byPayment of Object.values(detail[table] ?? {})) {
      for (const entry of Object.values(byPayment)) {
        if (entry.code === tariffCode) return entry.links.map((l) => l.rel);
      }
    }
  }
  return undefined;
}

/** Sets the kinds of the code-given targets from their products' links (stored, else read). */
export async function applyLinkedKinds(
  client: OctopusClient, warehouse: Warehouse, targets: IngestTarget[], logger: Logger, signal?: AbortSignal,
): Promise<void> {
  const byCode = targets.filter((t) => t.source !== 'product');
  if (byCode.length === 0) return;
  const stored = await storedRateKinds(warehouse, byCode.map((t) => t.tariffCode));
  const details = new Map<string, ProductDetail | undefined>();
  for (const target of byCode) {
    let rels = stored.get(target.tariffCode);
    if (rels === undefined) {
      if (!details.has(target.productCode)) details.set(target.productCode, await detailOf(client, target.productCode, logger, signal));
      const detail = details.get(target.productCode);
      rels = detail ? relsInDetail(detail, target.tariffCode) : undefined;
      if (rels !== undefined) target.rateKinds = rels;
    }
    if (rels !== undefined) applyRels(target, rels);
  }
}

/** A product's detail, or undefined when the API has none to give (the code then decides). */
async function detailOf(client: OctopusClient, productCode: string, logger: Logger, signal?: AbortSignal): Promise<ProductDetail | undefined> {
  try {
    return await client.product(productCode, { signal });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    logger.debug({ product: productCode, err: { code: error.code, message: error.message } }, 'no product detail: rate kinds from the tariff code');
    return undefined;
  }
}

// A tariff whose required rates come back empty (`count: 0`) is never a silent success: the run
// says so, with a hint from the product's detail (an optional resource) when the tariff there has
// other rate kinds than the ones asked for, e.g. a two-register or four-rate tariff asked for by code.
import type { Logger } from 'pino';
import type { OctopusClient } from '../api/OctopusClient.js';
import type { ProductDetail } from '../api/schemas.js';
import type { RateKind } from '../store/writeRates.js';
import { missingFrom, warnMissing, type MissingResource } from './optionalResources.js';
import type { IngestTarget } from './resolveTargets.js';

export interface EmptyRates {
  tariff: string;
  kind: RateKind;
  hint: string | null;
}

/** One entry per empty required rate kind; asks for each product's detail at most once. */
export async function describeEmptyRates(
  client: OctopusClient, logger: Logger, empties: { target: IngestTarget; kinds: RateKind[] }[], signal?: AbortSignal,
): Promise<{ empty: EmptyRates[]; missing: MissingResource[] }> {
  const details = new Map<string, Promise<ProductDetail | undefined>>();
  const missing: MissingResource[] = [];
  const empty: EmptyRates[] = [];
  for (const { target, kinds } of empties) {
    let detail = details.get(target.productCode);
    if (!detail) {
      detail = client.product(target.productCode, { signal }).catch((error: unknown) => {
        const gone = missingFrom(target.tariffCode, 'product_detail', error);
        missing.push(gone);
        warnMissing(logger, gone, error);
        return undefined;
      });
      details.set(target.productCode, detail);
    }
    const hint = hintFor(target, await detail);
    for (const kind of kinds) {
      empty.push({ tariff: target.tariffCode, kind, hint });
      logger.warn({ tariff: target.tariffCode, kind, hint }, `no ${kind} rates for ${target.tariffCode} in the window asked for${hint ? `: ${hint}` : ''}`);
    }
  }
  return { empty, missing };
}

const KIND_OF_REL: Record<string, string> = {
  standard_unit_rates: 'standard', day_unit_rates: 'day', night_unit_rates: 'night',
};

/** What the product's detail says about the tariff, as advice; null when it says nothing useful. */
export function hintFor(target: IngestTarget, detail: ProductDetail | undefined): string | null {
  if (!detail) return null;
  const tables = Object.entries(detail).filter(([key, value]) => key.endsWith('_tariffs') && value && typeof value === 'object');
  for (const [table, byRegion] of tables) {
    for (const [regionKey, byPayment] of Object.entries(byRegion as Record<string, unknown>)) {
      for (const entry of Object.values(byPayment as Record<string, { code?: unknown; links?: { rel?: unknown }[] }>)) {
        if (entry?.code !== target.tariffCode) continue;
        const kinds = (entry.links ?? []).map((l) => KIND_OF_REL[String(l.rel)] ?? String(l.rel));
        const asked = new Set<string>(target.kinds);
        const other = kinds.filter((k) => !asked.has(k) && k !== 'standing_charges');
        const region = regionKey.replace(/^_/, '');
        if (other.length > 0 || !table.startsWith('single_register')) {
          return `the product's detail lists it under ${table} with ${kinds.join(', ') || 'no rate links'}; `
            + `try \`--product ${detail.code} --region ${region}\``;
        }
        return null;
      }
    }
  }
  return `product ${detail.code}'s detail does not list ${target.tariffCode}; check the code (its product's tariffs: \`tariffs ingest --product ${detail.code} --region ${target.region}\`)`;
}

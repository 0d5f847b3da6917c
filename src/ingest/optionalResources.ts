// Required and optional resources (README "Required and optional resources"). A tariff needs its
// unit rates; standing charges and a product's detail (when the tariff code already says what is
// needed) are used when present. A failed optional resource is a warning, recorded in
// optional_resources so that it is asked for again only at its refresh interval, and never costs
// the tariff its rates.
import type { Logger } from 'pino';
import { ApiError } from '../api/errors.js';
import type { Warehouse } from '../store/Warehouse.js';
import type { RateKind } from '../store/writeRates.js';
import { missingSince, writeOptionalOutcomes, type OptionalOutcome } from '../store/optionalResources.js';

export type OptionalResource = 'standing_charges' | 'product_detail';

/** One optional resource a run could not get. */
export interface MissingResource {
  tariff: string;
  resource: OptionalResource;
  /** HTTP status of the failure, when there was one. */
  status: number | null;
  code: string | null;
  url: string | null;
}

/** The optional resource a rate kind is, or undefined for a required one. */
export function optionalResourceOf(kind: RateKind): OptionalResource | undefined {
  return kind === 'standing_charge' ? 'standing_charges' : undefined;
}

export function missingFrom(tariff: string, resource: OptionalResource, error: unknown): MissingResource {
  const api = error instanceof ApiError ? error : undefined;
  return {
    tariff, resource, status: api?.status ?? null, code: (error as { code?: string })?.code ?? null, url: api?.url ?? null,
  };
}

export function warnMissing(logger: Logger, missing: MissingResource, error: unknown): void {
  logger.warn({
    tariff: missing.tariff, resource: missing.resource, url: missing.url, status: missing.status, code: missing.code,
    reason: (error as Error)?.message,
  }, `optional resource missing: ${missing.resource} of ${missing.tariff} (${missing.status ?? missing.code}); its rates are stored without it`);
}

/** (tariff, resource) pairs found missing less than maxAgeMs ago: not asked for again yet. */
export async function recentlyMissing(warehouse: Warehouse, now: Date, maxAgeMs: number): Promise<Set<string>> {
  const rows = await missingSince(warehouse, new Date(now.getTime() - maxAgeMs));
  return new Set(rows.map((r) => resourceKey(r.tariff_code, r.resource as OptionalResource)));
}

export function resourceKey(tariff: string, resource: OptionalResource): string {
  return `${tariff}|${resource}`;
}

/** Records the outcome of each optional resource a run asked for. */
export async function recordOptionalOutcomes(
  warehouse: Warehouse, runId: number, now: Date,
  present: { tariff: string; resource: OptionalResource }[], missing: MissingResource[],
): Promise<void> {
  if (present.length === 0 && missing.length === 0) return;
  // one statement for all; a resource named twice keeps its last outcome, as writing them in turn would
  const rows = new Map<string, OptionalOutcome>();
  for (const p of present) rows.set(resourceKey(p.tariff, p.resource), [p.tariff, p.resource, 'present', null, null, null]);
  for (const m of missing) rows.set(resourceKey(m.tariff, m.resource), [m.tariff, m.resource, 'missing', m.status ?? null, m.code ?? null, m.url ?? null]);
  await writeOptionalOutcomes(warehouse, runId, now, [...rows.values()]);
}

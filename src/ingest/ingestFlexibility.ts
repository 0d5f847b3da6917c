// Power Up and Power Down events of the accounts (issue 42), into the warehouse: per import
// meter point each campaign's events, per account its saving sessions (FlexibilityClient →
// writeFlexibilityEvents), only those of the meter point's region. Optional like dispatches: a
// server without GraphQL, a GraphQL error or a failed request is a warning (once per run and kind
// of failure) and the run goes on with what it has.
import type { Logger } from 'pino';
import { CAMPAIGNS, type FlexEvent, type FlexibilityClient } from '../api/FlexibilityClient.js';
import { ApiError, GraphqlError } from '../api/errors.js';
import type { Warehouse } from '../store/Warehouse.js';
import { importMetersOf } from '../store/readMeters.js';
import { writeFlexibilityEvents } from '../store/writeFlexibilityEvents.js';

export interface IngestFlexibilityOptions {
  warehouse: Warehouse;
  client: FlexibilityClient;
  logger: Logger;
  accounts: readonly string[];
  runId: number;
  now: () => Date;
  signal?: AbortSignal | undefined;
}

export interface IngestFlexibilityResult {
  accounts: number;
  inserted: number;
  superseded: number;
  /** events of another region than the meter point's, not stored */
  ignored: number;
  warnings: string[];
}

export async function ingestFlexibility(options: IngestFlexibilityOptions): Promise<IngestFlexibilityResult> {
  const { warehouse, client, logger, runId, now, signal } = options;
  const result: IngestFlexibilityResult = { accounts: 0, inserted: 0, superseded: 0, ignored: 0, warnings: [] };
  const warned = new Set<string>();
  const fail = (accountNumber: string, what: string, error: unknown): void => {
    if (!(error instanceof ApiError)) throw error;
    const graphql = error instanceof GraphqlError ? error : undefined;
    const status = error.status ?? (error.cause instanceof ApiError ? error.cause.status : undefined);
    const code = graphql?.errorCode ?? graphql?.errorType ?? (status !== undefined ? `HTTP ${status}` : error.code);
    if (warned.has(`${what}|${code}`)) return;
    warned.add(`${what}|${code}`);
    const warning = `optional resource missing: ${what} not available (${code}); costs are priced without them — POST ${error.url}`;
    result.warnings.push(warning);
    logger.warn({ resource: 'flexibility', what, account: accountNumber, url: error.url, status: status ?? null, code }, warning);
  };
  const store = async (answer: Parameters<typeof writeFlexibilityEvents>[1], events: FlexEvent[], region: (e: FlexEvent) => boolean) => {
    const kept = events.filter(region);
    result.ignored += events.length - kept.length;
    const wrote = await writeFlexibilityEvents(warehouse, answer, kept, now(), runId);
    result.inserted += wrote.inserted;
    result.superseded += wrote.superseded;
  };

  for (const accountNumber of options.accounts) {
    if (signal?.aborted) break;
    const meters = await importMeters(warehouse, accountNumber);
    if (meters.length === 0) continue;
    result.accounts++;
    let reachable = true;
    for (const meter of meters) {
      for (const campaign of CAMPAIGNS) {
        if (signal?.aborted || !reachable) break;
        try {
          const events = await client.campaignEvents(accountNumber, meter.mpan, campaign.slug, signal);
          await store({ source: campaign.slug, kind: campaign.kind, accountNumber, meterPoint: meter.mpan }, events,
            (e) => inRegion(e.regions, [meter.region]));
        } catch (error) {
          fail(accountNumber, `${campaign.slug} events`, error);
          // no GraphQL at all (404, no token): asking again would fail the same way
          if (error instanceof ApiError && !(error instanceof GraphqlError)) reachable = false;
        }
      }
    }
    if (signal?.aborted || !reachable) continue;
    try {
      const events = await client.savingSessions(accountNumber, signal);
      await store({ source: 'savingSessions', kind: 'power_down', accountNumber, meterPoint: '' }, events,
        (e) => inRegion(e.regions, meters.map((m) => m.region)));
    } catch (error) {
      fail(accountNumber, 'saving sessions', error);
    }
  }
  if (result.accounts > 0) logger.info({ ...result, warnings: result.warnings.length || undefined }, 'flexibility events refreshed');
  return result;
}

/** An event names no region, or regions not read as GSP groups: kept. Otherwise it is kept when
 *  one of them (`_C` or `C`) is a region of the meter points (the letter their tariff code ends in). */
export function inRegion(regions: readonly string[], meterRegions: readonly (string | null)[]): boolean {
  const letters = regions.flatMap((r) => /^_?([A-P])$/i.exec(r.trim())?.[1]?.toUpperCase() ?? []);
  const known = meterRegions.filter((r): r is string => r !== null);
  if (letters.length === 0 || known.length === 0) return true;
  return letters.some((l) => known.includes(l));
}

/** The account's electricity import meter points and the GSP region letter of their latest agreement. */
async function importMeters(warehouse: Warehouse, accountNumber: string): Promise<{ mpan: string; region: string | null }[]> {
  return importMetersOf(warehouse, accountNumber);
}

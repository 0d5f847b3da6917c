// Decides what to fetch: the tariffs named on the command line or in the config, a product's
// tariffs in chosen regions (from its detail), and the tariffs of an account's agreements, each
// over its agreement period.
import type { OctopusClient } from '../api/OctopusClient.js';
import type { ProductDetail, TariffTable } from '../api/schemas.js';
import { parseTariffCode } from '../api/tariffCodes.js';
import { ERROR_CODES, TariffsError, UsageError } from '../errors.js';
import type { TariffRow } from '../store/writeCatalog.js';
import type { RateKind } from '../store/writeRates.js';
import { applyRels } from './linkedKinds.js';
import { publishedNightBand, type NightBand } from './publishedNightBand.js';

export interface IngestTarget extends TariffRow {
  kinds: RateKind[];
  /** Agreement period (from accounts): fetching is clipped to it; no `to` = open-ended. */
  period?: { from: Date; to?: Date };
  source: 'tariff' | 'product' | 'account';
}

/** A product whose four-rate EV entries name no night band: the band used instead, if any. */
export interface NightBandNotice {
  product: string;
  tariffs: string[];
  /** The tariff's published band (publishedNightBand), or undefined: day and night rates are then
   *  kept as two series, as for any day/night tariff. */
  band: NightBand | undefined;
}

export interface TargetRequest {
  tariffs: string[];
  products: { code: string; regions: string[] }[];
  accounts: string[];
}

/** Rate kinds a tariff has, from its fuel and register. */
export function kindsFor(fuel: 'electricity' | 'gas', register: 'single' | 'dual'): RateKind[] {
  if (fuel === 'electricity' && register === 'dual') return ['day', 'night', 'standing_charge'];
  return ['standard', 'standing_charge'];
}

const LINK_KIND: Record<string, string> = {
  standard_unit_rates: 'standard_unit_rates', day_unit_rates: 'day_unit_rates',
  night_unit_rates: 'night_unit_rates', standing_charges: 'standing_charges',
};

export function targetFromCode(code: string, source: IngestTarget['source'], flag = '--tariff'): IngestTarget {
  const parts = parseTariffCode(code, flag);
  return {
    tariffCode: parts.tariffCode, productCode: parts.productCode, fuel: parts.fuel, register: parts.register,
    region: parts.region, paymentMethod: null, rateKinds: [], kinds: kindsFor(parts.fuel, parts.register), source,
  };
}

/**
 * A product's electricity tariffs (single and dual register, and four-rate EV tariffs: day and
 * night rates with the night band the entry names) in the given regions. An EV entry naming no
 * band (night_start and night_end are undocumented, hence optional) gets the tariff's published
 * one when known (Intelligent Octopus Go: 23:30-05:30); `notices` then gains one entry for the
 * product, for the caller to warn once.
 */
export function targetsFromProduct(detail: ProductDetail, regions: string[], notices: NightBandNotice[] = []): IngestTarget[] {
  const out: IngestTarget[] = [];
  const unnamed: string[] = [];
  const fallback = publishedNightBand(detail.code);
  const tables: [TariffTable | undefined, 'single' | 'dual', boolean][] = [
    [detail.single_register_electricity_tariffs, 'single', false],
    [detail.dual_register_electricity_tariffs, 'dual', false],
    [detail.four_rate_ev_electricity_tariffs, 'dual', true],
  ];
  for (const region of regions) {
    let found = 0;
    for (const [table, register, ev] of tables) {
      const byPayment = table?.[`_${region}`];
      if (!byPayment) continue;
      for (const [paymentMethod, entry] of Object.entries(byPayment)) {
        const existing = out.find((t) => t.tariffCode === entry.code);
        const rateKinds = entry.links.map((l) => LINK_KIND[l.rel] ?? l.rel);
        if (existing) {
          existing.rateKinds = [...new Set([...existing.rateKinds, ...rateKinds])];
          continue;
        }
        found++;
        const named = ev ? nightBandOf(entry, `product ${detail.code} region ${region} ${paymentMethod}`) : undefined;
        if (ev && named === undefined) unnamed.push(entry.code);
        const nightBand = named ?? (ev ? fallback : undefined);
        const target: IngestTarget = {
          tariffCode: entry.code, productCode: detail.code, fuel: 'electricity', register, region,
          paymentMethod, rateKinds, kinds: kindsFor('electricity', register), source: 'product',
          ...(nightBand ? { nightBand } : {}),
        };
        applyRels(target, entry.links.map((l) => l.rel)); // the links decide, not the table or the code
        out.push(target);
      }
    }
    if (found === 0) throw new UsageError(`--region ${region}: product ${detail.code} has no electricity tariff in region ${region}`);
  }
  if (unnamed.length > 0) notices.push({ product: detail.code, tariffs: unnamed, band: fallback });
  return out;
}

/** `night_start`/`night_end` (`23:30` or `23:30:00`, Europe/London wall time) → minutes after
 *  midnight; undefined when the entry has neither (a malformed or lone one is refused). */
function nightBandOf(entry: Record<string, unknown>, where: string): NightBand | undefined {
  if (entry.night_start === undefined && entry.night_end === undefined) return undefined;
  const minutes = (field: 'night_start' | 'night_end') => {
    const text = entry[field];
    const m = typeof text === 'string' ? /^([01]\d|2[0-3]):([0-5]\d)(?::00)?$/.exec(text) : null;
    if (!m) throw new TariffsError(ERROR_CODES.INVALID_RECORD, `${where}: four_rate_ev_electricity_tariffs entry ${entry.code as string}: ${field} must be HH:MM, got ${JSON.stringify(text)}`);
    return Number(m[1]) * 60 + Number(m[2]);
  };
  return { startMinutes: minutes('night_start'), endMinutes: minutes('night_end') };
}

/** The tariffs of an account's agreements; one tariff in several agreements covers them all. */
export async function targetsFromAccount(client: OctopusClient, accountNumber: string): Promise<IngestTarget[]> {
  const account = await client.account(accountNumber);
  const byCode = new Map<string, IngestTarget>();
  for (const property of account.properties) {
    const points = [...(property.electricity_meter_points ?? []), ...(property.gas_meter_points ?? [])];
    for (const point of points) {
      for (const agreement of point.agreements) {
        const from = new Date(agreement.valid_from);
        const to = agreement.valid_to === null ? undefined : new Date(agreement.valid_to);
        const existing = byCode.get(agreement.tariff_code);
        if (existing?.period) {
          existing.period.from = existing.period.from < from ? existing.period.from : from;
          if (existing.period.to !== undefined) {
            if (to === undefined) delete existing.period.to;
            else if (to > existing.period.to) existing.period.to = to;
          }
          continue;
        }
        const target = targetFromCode(agreement.tariff_code, 'account', `account ${accountNumber} agreement`);
        target.period = to === undefined ? { from } : { from, to };
        byCode.set(agreement.tariff_code, target);
      }
    }
  }
  return [...byCode.values()];
}

/**
 * Every target of the request, once. `warn` hears once per product whose EV entries name no
 * night band, saying which band was used instead.
 */
export async function resolveTargets(
  client: OctopusClient, request: TargetRequest, warn: (notice: NightBandNotice, message: string) => void = () => undefined,
): Promise<IngestTarget[]> {
  const targets = new Map<string, IngestTarget>();
  const add = (t: IngestTarget) => {
    const existing = targets.get(t.tariffCode);
    if (!existing) return void targets.set(t.tariffCode, t);
    if (existing.period && !t.period) delete existing.period; // a plain --tariff asks for everything
    if (t.nightBand && !existing.nightBand) existing.nightBand = t.nightBand; // only a product detail knows it
  };
  for (const code of request.tariffs) add(targetFromCode(code, 'tariff'));
  const notices: NightBandNotice[] = [];
  for (const product of request.products) {
    const detail = await client.product(product.code);
    for (const t of targetsFromProduct(detail, product.regions, notices)) add(t);
  }
  for (const notice of notices) warn(notice, nightBandMessage(notice));
  for (const account of request.accounts) for (const t of await targetsFromAccount(client, account)) add(t);
  return [...targets.values()];
}

function nightBandMessage(notice: NightBandNotice): string {
  const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  const what = `product ${notice.product}: four_rate_ev_electricity_tariffs entry ${notice.tariffs.join(', ')} names no night band (night_start, night_end)`;
  return notice.band
    ? `${what}; using the tariff's published band ${hhmm(notice.band.startMinutes)}-${hhmm(notice.band.endMinutes)} Europe/London`
    : `${what} and none is known for it; its day and night rates are kept as two series`;
}

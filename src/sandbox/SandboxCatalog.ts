// What the sandbox knows: products (list entries and details), tariffs with their rate series, and
// accounts. Built once from data/sandbox/ and copied per sandbox, so addTariff stays local to one.
import type { ConsumptionSeries } from './ConsumptionSeries.js';
import { ERROR_CODES, TariffsError } from '../errors.js';
import { RateSeries, isoUtc, type RateInput } from './RateSeries.js';

export type Json = Record<string, unknown>;
export type RatePath = 'standard-unit-rates' | 'standing-charges' | 'day-unit-rates' | 'night-unit-rates';
export type TariffFuel = 'electricity' | 'gas';

export const RATE_KINDS: readonly RatePath[] = [
  'standard-unit-rates', 'standing-charges', 'day-unit-rates', 'night-unit-rates',
];

/** The host the recorded pages link to; rewritten to the sandbox's own origin in every response. */
export const REAL_BASE_URL = 'https://api.octopus.energy/v1/';

export interface TariffEntry {
  productCode: string;
  tariffCode: string;
  fuel: TariffFuel;
  registers: '1R' | '2R';
  series: Map<RatePath, RateSeries>;
}

export interface ProductEntry {
  code: string;
  /** The element of GET /products/ results. */
  listing: Json;
  /** The body of GET /products/{code}/ (links point at REAL_BASE_URL). */
  detail: Json;
  /** True when no real detail was recorded and the sandbox made one from the listing. */
  synthesizedDetail: boolean;
}

export interface TariffSummary {
  productCode: string;
  tariffCode: string;
  kind: RatePath;
  rows: number;
  firstValidFrom: string | null;
  lastValidFrom: string | null;
}

/** Input of Sandbox.addTariff: an extra tariff (and its product, made up if new) with its rates. */
export interface AddTariffInput {
  tariffCode: string;
  /** Defaults to the code between `E-1R-` and the region letter, e.g. AGILE-18-02-21. */
  productCode?: string;
  /** Standard unit rates (day/night for an E-2R tariff go in dayRates/nightRates). */
  rates?: readonly RateInput[];
  standingCharges?: readonly RateInput[];
  dayRates?: readonly RateInput[];
  nightRates?: readonly RateInput[];
  /** Fields of the product listing when the product is new (full_name, is_green, brand…). */
  product?: Json;
  /** The detail's group to list a new tariff under (default: by fuel and register of its code);
   *  `four_rate_ev_electricity_tariffs` serves day and night rates whatever the code says, as the
   *  real IOG-SMB tariff E-1R-IOG-SMB-VAR-24-10-29-H is. */
  group?: TariffGroupKey;
}

const TARIFF_CODE = /^([EG])-(1R|2R)-(.+)-([A-P])$/;
export const REGIONS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'J', 'K', 'L', 'M', 'N', 'P'] as const;

export function parseTariffCode(code: string): { fuel: TariffFuel; registers: '1R' | '2R'; product: string; region: string } {
  const m = TARIFF_CODE.exec(code);
  if (!m) throw new TariffsError(ERROR_CODES.SANDBOX_DATA, `'${code}' is not a tariff code like E-1R-AGILE-18-02-21-A`);
  return { fuel: m[1] === 'E' ? 'electricity' : 'gas', registers: m[2] as '1R' | '2R', product: m[3]!, region: m[4]! };
}

/** The rate kinds a tariff answers: single register standard rates, dual register day/night. */
export function kindsFor(tariff: TariffEntry): RatePath[] {
  return tariff.registers === '2R'
    ? ['day-unit-rates', 'night-unit-rates', 'standing-charges']
    : ['standard-unit-rates', 'standing-charges'];
}

export type TariffGroupKey =
  'single_register_electricity_tariffs' | 'dual_register_electricity_tariffs' | 'single_register_gas_tariffs'
  | 'four_rate_ev_electricity_tariffs';

const TARIFF_GROUPS: { key: TariffGroupKey; fuel: TariffFuel; registers: '1R' | '2R' }[] = [
  { key: 'single_register_electricity_tariffs', fuel: 'electricity', registers: '1R' },
  { key: 'dual_register_electricity_tariffs', fuel: 'electricity', registers: '2R' },
  { key: 'single_register_gas_tariffs', fuel: 'gas', registers: '1R' },
  // EV time-of-use tariffs (day and night rates, the night band in the entry): served like 2R ones
  { key: 'four_rate_ev_electricity_tariffs', fuel: 'electricity', registers: '2R' },
];

export class SandboxCatalog {
  readonly products = new Map<string, ProductEntry>();
  readonly tariffs = new Map<string, TariffEntry>();
  readonly accounts = new Map<string, Json>();
  /** Meters with readings, by `electricity|MPAN|SERIAL` or `gas|MPRN|SERIAL` (see meterKey). */
  readonly consumption = new Map<string, ConsumptionSeries>();

  /** A copy sharing the (immutable) rate series and JSON, with maps of its own. */
  clone(): SandboxCatalog {
    const copy = new SandboxCatalog();
    for (const [k, v] of this.products) copy.products.set(k, { ...v });
    for (const [k, v] of this.tariffs) copy.tariffs.set(k, { ...v, series: new Map(v.series) });
    for (const [k, v] of this.accounts) copy.accounts.set(k, v);
    for (const [k, v] of this.consumption) copy.consumption.set(k, v);
    return copy;
  }

  /**
   * Adds a product; every tariff its detail lists becomes a served tariff (with no rates until
   * setRates), so every link in a detail resolves.
   */
  addProduct(listing: Json, detail: Json | undefined, synthesized = detail === undefined): ProductEntry {
    const code = String(listing.code);
    const entry: ProductEntry = {
      code,
      listing,
      detail: detail ?? synthesizeDetail(listing),
      synthesizedDetail: synthesized,
    };
    this.products.set(code, entry);
    for (const group of TARIFF_GROUPS) {
      const regions = entry.detail[group.key];
      if (!regions || typeof regions !== 'object') continue;
      for (const byMethod of Object.values(regions as Record<string, Record<string, Json>>)) {
        for (const tariff of Object.values(byMethod)) {
          const tariffCode = String(tariff.code);
          if (!this.tariffs.has(tariffCode)) {
            this.tariffs.set(tariffCode, {
              productCode: code, tariffCode, fuel: group.fuel, registers: group.registers, series: new Map(),
            });
          }
        }
      }
    }
    return entry;
  }

  setRates(tariffCode: string, kind: RatePath, series: RateSeries): void {
    const tariff = this.tariffs.get(tariffCode);
    if (!tariff) throw new TariffsError(ERROR_CODES.SANDBOX_DATA, `unknown sandbox tariff ${tariffCode}`);
    if (!kindsFor(tariff).includes(kind)) {
      throw new TariffsError(ERROR_CODES.SANDBOX_DATA, `${tariffCode} has no ${kind} (a ${tariff.registers} tariff)`);
    }
    tariff.series.set(kind, series);
  }

  /**
   * Registers a tariff (and its product when new) and replaces the rates given. The product detail
   * gains the region entry (direct_debit_monthly) when it did not list the tariff yet.
   */
  addTariff(input: AddTariffInput): TariffEntry {
    const parsed = parseTariffCode(input.tariffCode);
    const productCode = input.productCode ?? parsed.product;
    let product = this.products.get(productCode);
    if (!product) {
      const listing: Json = { ...productListing(productCode), ...(input.product ?? {}), code: productCode };
      product = this.addProduct(listing, undefined);
    }
    let tariff = this.tariffs.get(input.tariffCode);
    if (tariff && tariff.productCode !== productCode) {
      throw new TariffsError(ERROR_CODES.SANDBOX_DATA, `${input.tariffCode} already belongs to product ${tariff.productCode}`);
    }
    if (!tariff) {
      // Copy-on-write: the detail object may be shared with the catalog this one was cloned from.
      const detail = structuredClone(product.detail);
      const group = TARIFF_GROUPS.find((g) => (input.group === undefined
        ? g.fuel === parsed.fuel && g.registers === parsed.registers
        : g.key === input.group))!;
      const regions = (detail[group.key] && typeof detail[group.key] === 'object' && !Array.isArray(detail[group.key])
        ? detail[group.key]
        : {}) as Record<string, Record<string, Json>>;
      regions[`_${parsed.region}`] = {
        ...(regions[`_${parsed.region}`] ?? {}),
        direct_debit_monthly: tariffDetailEntry(productCode, input.tariffCode, parsed.fuel, group.registers),
      };
      detail[group.key] = regions;
      this.products.set(productCode, { ...product, detail });
      tariff = { productCode, tariffCode: input.tariffCode, fuel: parsed.fuel, registers: group.registers, series: new Map() };
      this.tariffs.set(input.tariffCode, tariff);
    }
    const given: [RatePath, readonly RateInput[] | undefined][] = [
      ['standard-unit-rates', input.rates],
      ['standing-charges', input.standingCharges],
      ['day-unit-rates', input.dayRates],
      ['night-unit-rates', input.nightRates],
    ];
    for (const [kind, rates] of given) {
      if (rates !== undefined) this.setRates(input.tariffCode, kind, RateSeries.fromRecords(rates));
    }
    return tariff;
  }

  /** Tariff × kind rows with data, for `tariffs sandbox --list` and the README. */
  summary(): TariffSummary[] {
    const rows: TariffSummary[] = [];
    for (const tariff of this.tariffs.values()) {
      for (const [kind, series] of tariff.series) {
        if (series.length === 0) continue;
        const span = series.span();
        rows.push({
          productCode: tariff.productCode,
          tariffCode: tariff.tariffCode,
          kind,
          rows: series.length,
          firstValidFrom: span ? isoUtc(span.first) : null,
          lastValidFrom: span ? isoUtc(span.last) : null,
        });
      }
    }
    return rows.sort((a, b) => a.tariffCode.localeCompare(b.tariffCode) || a.kind.localeCompare(b.kind));
  }
}

/** A product listing for a product the recordings never saw (shaped like a real Agile listing). */
export function productListing(code: string, fields: Json = {}): Json {
  return {
    code,
    direction: 'IMPORT',
    full_name: code,
    display_name: code,
    description: '',
    is_variable: true,
    is_green: false,
    is_tracker: false,
    is_prepay: false,
    is_business: false,
    is_restricted: false,
    term: null,
    available_from: '2017-01-01T00:00:00Z',
    available_to: null,
    links: [{ href: `${REAL_BASE_URL}products/${code}/`, method: 'GET', rel: 'self' }],
    brand: 'OCTOPUS_ENERGY',
    ...fields,
  };
}

/** One payment-method entry of a detail: the tariff code and links to its rate endpoints. */
export function tariffDetailEntry(productCode: string, tariffCode: string, fuel: TariffFuel, registers: '1R' | '2R'): Json {
  const base = `${REAL_BASE_URL}products/${productCode}/${fuel}-tariffs/${tariffCode}/`;
  const link = (kind: RatePath) => ({ href: `${base}${kind}/`, method: 'GET', rel: kind.replaceAll('-', '_') });
  const links = registers === '2R'
    ? [link('standing-charges'), link('day-unit-rates'), link('night-unit-rates')]
    : [link('standing-charges'), link('standard-unit-rates')];
  return { code: tariffCode, links };
}

/**
 * The detail of a product whose real detail was not recorded: the listing's fields, no tariffs
 * (the sandbox knows none), and tariffs_active_at filled in per request like the real default (now).
 */
export function synthesizeDetail(listing: Json, tariffs: Partial<Record<TariffGroupKey, Json>> = {}): Json {
  const { direction: _direction, links, brand, ...fields } = listing;
  return {
    ...fields,
    tariffs_active_at: null,
    single_register_electricity_tariffs: tariffs.single_register_electricity_tariffs ?? {},
    dual_register_electricity_tariffs: tariffs.dual_register_electricity_tariffs ?? {},
    single_register_gas_tariffs: tariffs.single_register_gas_tariffs ?? {},
    ...(tariffs.four_rate_ev_electricity_tariffs ? { four_rate_ev_electricity_tariffs: tariffs.four_rate_ev_electricity_tariffs } : {}),
    sample_quotes: {},
    sample_consumption: {},
    links,
    brand,
  };
}

/** The synthetic Intelligent Octopus Go day/night product: a `-1R-` code whose detail links only
 *  day and night unit rates (no standard ones), as the real ones of 2026 are. */
export const DAY_NIGHT_1R = { product: 'INTELLI-VAR-SANDBOX-26-03-01', tariff: 'E-1R-INTELLI-VAR-SANDBOX-26-03-01-C' } as const;

export function addDayNightOneRateProduct(catalog: SandboxCatalog): void {
  const open = (exc: number) => [{ value_exc_vat: exc, value_inc_vat: Math.round(exc * 105) / 100, valid_from: '2026-03-01T00:00:00Z', valid_to: null, payment_method: null }];
  catalog.addTariff({
    tariffCode: DAY_NIGHT_1R.tariff, productCode: DAY_NIGHT_1R.product, group: 'dual_register_electricity_tariffs',
    dayRates: open(28), nightRates: open(7), standingCharges: open(50),
    product: {
      full_name: 'Intelligent Octopus Go day/night (synthetic) March 2026', display_name: 'Intelligent Octopus Go',
      available_from: '2026-03-01T00:00:00Z', is_green: true,
    },
  });
}

export function meterKey(fuel: 'electricity' | 'gas', point: string, serial: string): string {
  return `${fuel}|${point}|${serial}`;
}

// The supplier's REST interface, endpoint by endpoint. Only documented query parameters are sent
// (plus page_size); datetimes always go out in UTC with a `Z`, never naive.
import type { Logger } from 'pino';
import { formatUtc } from '../time/index.js';
import { HttpClient, type Credentials, type HttpClientOptions } from './HttpClient.js';
import { AuthError, HttpStatusError, RecordValidationError } from './errors.js';
import { paginate, type Page, type PaginateOptions } from './paginate.js';
import {
  accountSchema, issuePath, productDetailSchema, productSchema, standingChargeSchema, unitRateSchema,
  type Account, type Product, type ProductDetail, type UnitRate,
} from './schemas.js';
import { normaliseBaseUrl, redactUrl } from './urls.js';
import { accountMetersSchema, consumptionSchema, type AccountMeters, type ConsumptionRecord } from './consumptionSchemas.js';

export type ElectricityRateKind = 'standard-unit-rates' | 'day-unit-rates' | 'night-unit-rates' | 'standing-charges';
export type GasRateKind = 'standard-unit-rates' | 'standing-charges';

export interface Period {
  from?: Date;
  to?: Date;
}

export interface ProductFilters {
  brand?: string;
  isGreen?: boolean;
  isPrepay?: boolean;
}

export interface OctopusClientOptions extends HttpClientOptions {
  baseUrl: string | URL;
  credentials?: Credentials;
  http?: HttpClient;
  logger?: Logger;
  /** page_size to ask for; null sends none. */
  pageSize?: number | null;
}

export class OctopusClient {
  readonly baseUrl: URL;
  readonly http: HttpClient;
  private readonly credentials: Credentials | undefined;
  private readonly pageSize: number | null | undefined;

  constructor(options: OctopusClientOptions) {
    this.baseUrl = typeof options.baseUrl === 'string' ? normaliseBaseUrl(options.baseUrl) : options.baseUrl;
    this.http = options.http ?? new HttpClient(options);
    this.credentials = options.credentials;
    this.pageSize = options.pageSize;
  }

  async close(): Promise<void> {
    await this.http.close();
  }

  get hasCredentials(): boolean {
    return this.credentials !== undefined;
  }

  url(path: string, query: Record<string, string | undefined> = {}): URL {
    const url = new URL(path, this.baseUrl);
    for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, value);
    return url;
  }

  products(filters: ProductFilters = {}, options: PaginateOptions = {}): AsyncGenerator<Page<Product>> {
    const url = this.url('products/', {
      brand: filters.brand,
      is_green: filters.isGreen === undefined ? undefined : String(filters.isGreen),
      is_prepay: filters.isPrepay === undefined ? undefined : String(filters.isPrepay),
    });
    return paginate(this.http, url, productSchema, this.pagination(options));
  }

  async product(productCode: string, options: { signal?: AbortSignal } = {}): Promise<ProductDetail> {
    const url = this.url(`products/${seg(productCode)}/`);
    return this.getOne(url, productDetailSchema, undefined, options.signal);
  }

  electricityRates(
    productCode: string, tariffCode: string, kind: ElectricityRateKind, period: Period = {}, options: PaginateOptions = {},
  ): AsyncGenerator<Page<UnitRate>> {
    const path = `products/${seg(productCode)}/electricity-tariffs/${seg(tariffCode)}/${kind}/`;
    return this.rates(path, kind, period, options);
  }

  gasRates(
    productCode: string, tariffCode: string, kind: GasRateKind, period: Period = {}, options: PaginateOptions = {},
  ): AsyncGenerator<Page<UnitRate>> {
    const path = `products/${seg(productCode)}/gas-tariffs/${seg(tariffCode)}/${kind}/`;
    return this.rates(path, kind, period, options);
  }

  /** The rates of either fuel (the ingest's streams). */
  tariffRates(
    fuel: 'electricity' | 'gas', productCode: string, tariffCode: string, kind: ElectricityRateKind, period: Period = {},
    options: PaginateOptions = {},
  ): AsyncGenerator<Page<UnitRate>> {
    return this.rates(`products/${seg(productCode)}/${fuel}-tariffs/${seg(tariffCode)}/${kind}/`, kind, period, options);
  }

  async account(accountNumber: string, options: { signal?: AbortSignal } = {}): Promise<Account> {
    const url = this.url(`accounts/${seg(accountNumber)}/`);
    if (!this.credentials) {
      throw new AuthError('account data needs credentials: set TARIFFS_API_KEY, --api-key-file or TARIFFS_TOKEN', {
        method: 'GET', url: redactUrl(url),
      });
    }
    return await this.getOne(url, accountSchema, this.credentials, options.signal).catch((error: unknown) => {
      throw accountNotFound(error, accountNumber);
    });
  }

  /** Half-hourly readings of one meter (credentials required); `order_by` 'period' = oldest first. */
  consumption(
    fuel: 'electricity' | 'gas', meterPoint: string, serial: string, period: Period = {},
    options: PaginateOptions & { orderBy?: 'period' | '-period' } = {},
  ): AsyncGenerator<Page<ConsumptionRecord>> {
    const url = this.url(`${fuel}-meter-points/${seg(meterPoint)}/meters/${seg(serial)}/consumption/`, {
      period_from: period.from ? formatUtc(period.from) : undefined,
      period_to: period.to ? formatUtc(period.to) : undefined,
      order_by: options.orderBy,
    });
    if (!this.credentials) {
      throw new AuthError('consumption needs credentials: set TARIFFS_API_KEY, --api-key-file or TARIFFS_TOKEN', { method: 'GET', url: redactUrl(url) });
    }
    return paginate(this.http, url, consumptionSchema, { ...this.pagination(options), credentials: this.credentials });
  }

  /** The account with its meters (serials, export flag) as well as its agreements. */
  async accountMeters(accountNumber: string, options: { signal?: AbortSignal } = {}): Promise<AccountMeters> {
    const url = this.url(`accounts/${seg(accountNumber)}/`);
    if (!this.credentials) {
      throw new AuthError('account data needs credentials: set TARIFFS_API_KEY, --api-key-file or TARIFFS_TOKEN', { method: 'GET', url: redactUrl(url) });
    }
    return await this.getOne(url, accountMetersSchema, this.credentials, options.signal).catch((error: unknown) => {
      throw accountNotFound(error, accountNumber);
    });
  }

  private rates(path: string, kind: string, period: Period, options: PaginateOptions): AsyncGenerator<Page<UnitRate>> {
    return paginate(this.http, this.ratesUrl(path, period), rateSchema(kind), this.pagination(options));
  }

  private ratesUrl(path: string, period: Period): URL {
    return this.url(path, {
      period_from: period.from ? formatUtc(period.from) : undefined,
      period_to: period.to ? formatUtc(period.to) : undefined,
    });
  }

  private pagination(options: PaginateOptions): PaginateOptions {
    return { pageSize: this.pageSize, ...options };
  }

  private async getOne<T>(
    url: URL, schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } },
    credentials: Credentials | undefined, signal: AbortSignal | undefined,
  ): Promise<T> {
    const response = await this.http.getJson(url, { credentials, signal });
    const parsed = schema.safeParse(response.json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new RecordValidationError(issuePath(issue), issue.message, undefined, {
        method: 'GET', url: redactUrl(url), attempts: response.attempts,
      });
    }
    return parsed.data;
  }
}

function rateSchema(kind: string) {
  return kind === 'standing-charges' ? standingChargeSchema : unitRateSchema;
}

function seg(value: string): string {
  return encodeURIComponent(value);
}

/** A 404 for an account: the number is unknown to the API, or not an account the key may read
 *  (the API answers both the same). Other errors unchanged. */
function accountNotFound(error: unknown, accountNumber: string): unknown {
  if (!(error instanceof HttpStatusError) || error.status !== 404) return error;
  return new HttpStatusError(
    { method: error.method, url: error.url, status: 404, ...(error.attempts === undefined ? {} : { attempts: error.attempts }), cause: error },
    `account ${accountNumber} not found for this API key (check the account number, A-XXXXXXXX, and that the key is that account's)`,
  );
}

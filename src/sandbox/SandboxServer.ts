// The sandbox's node:http server: routes the REST and GraphQL endpoints, records every request,
// injects faults, and closes without leaving sockets or timers behind.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { ERROR_CODES, TariffsError } from '../errors.js';
import type { Logger } from '../log/createLogger.js';
import {
  FaultSchedule, STATUS_FAULTS, corruptRecord, parseFaultSpecs, type FaultSpec,
} from './faults.js';
import { handleGraphql } from './handleGraphql.js';
import { profileRules, type ProfileRules, type SandboxProfile } from './profiles.js';
import {
  invalidParametersBody, lastParam, readBooleanParam, readDateTimeParam, readPageSize, type ParamError,
} from './queryParams.js';
import { isoUtc, type RateSeries } from './RateSeries.js';
import {
  RATE_KINDS, kindsFor, type AddTariffInput, type Json, type RatePath, type SandboxCatalog,
  type TariffSummary,
} from './SandboxCatalog.js';
import { consumptionReply } from './consumptionReply.js';
import {
  NOT_FOUND, hasRecords, methodNotAllowed, paginate, prepareReply, redirectToSlash, statusFault, writeReply, type Reply,
} from './replies.js';
import { decode, originFor, readBody, requestOrigin } from './requests.js';
import { SANDBOX_API_KEYS } from './sandboxCredentials.js';
import type { SandboxFlexEvent } from './sandboxFlexibility.js';
import type { RecordedRequest, Sandbox } from './startSandbox.js';
import { TokenStore } from './TokenStore.js';
import { publishedUntil } from './dayAheadPublication.js';

export interface SandboxServerOptions {
  catalog: SandboxCatalog;
  logger: Logger;
  faults: FaultSpec[];
  latencyMs: number;
  visibleUntil?: Date;
  /** Half-hourly prices published a day at a time at 16:00 London the day before, by `now`. */
  dayAhead?: boolean;
  /** The products list (without available_at) holds only the products available at `now`. */
  onSaleAtClock?: boolean;
  tokenTtlSeconds: number;
  now: () => Date;
  profile?: SandboxProfile;
  /** In place of the faults the profile comes with. */
  profileFaults?: FaultSpec[];
  /** Power Ups by import MPAN, in place of the sandbox's own (SandboxOptions.powerUps). */
  powerUps?: Readonly<Record<string, readonly SandboxFlexEvent[]>>;
}



const ROUTES = {
  products: /^\/v1\/products\/?$/,
  product: /^\/v1\/products\/([^/]+)(\/?)$/,
  rates: /^\/v1\/products\/([^/]+)\/(electricity|gas)-tariffs\/([^/]+)\/([a-z-]+)(\/?)$/,
  account: /^\/v1\/accounts\/([^/]+)(\/?)$/,
  consumption: /^\/v1\/(electricity|gas)-meter-points\/([^/]+)\/meters\/([^/]+)\/consumption(\/?)$/,
  graphql: /^\/v1\/graphql\/?$/,
};

const BOOLEAN_PRODUCT_FILTERS = ['is_green', 'is_prepay', 'is_business', 'is_variable', 'is_tracker', 'is_restricted'];

export class SandboxServer implements Sandbox {
  readonly requests: RecordedRequest[] = [];
  private readonly server: Server;
  private readonly catalog: SandboxCatalog;
  private readonly log: Logger;
  private readonly now: () => Date;
  private readonly tokens: TokenStore;
  private faults: FaultSchedule;
  /** Products withdrawn from the list (setListed), their URLs still answering. */
  private readonly unlisted = new Set<string>();
  private readonly rules: ProfileRules;
  /** The profile's own faults (spec: throttling), counted apart from --fault's. */
  private readonly profileFaults: FaultSchedule;
  private latencyMs: number;
  private held: Promise<void> | undefined;
  private visibleUntil: Date | undefined;
  private readonly dayAhead: boolean;
  private readonly onSaleAtClock: boolean;
  private readonly sleeping = new Set<{ timer: NodeJS.Timeout; wake: () => void }>();
  private closing: Promise<void> | undefined;
  private address: { host: string; port: number } | undefined;
  private readonly powerUps: Readonly<Record<string, readonly SandboxFlexEvent[]>> | undefined;

  constructor(options: SandboxServerOptions) {
    this.catalog = options.catalog;
    this.log = options.logger;
    this.now = options.now;
    this.tokens = new TokenStore(options.tokenTtlSeconds, options.now);
    this.faults = new FaultSchedule(options.faults);
    this.rules = profileRules(options.profile ?? 'default');
    this.profileFaults = new FaultSchedule(options.profileFaults ?? this.rules.faults);
    this.latencyMs = options.latencyMs;
    this.visibleUntil = options.visibleUntil;
    this.powerUps = options.powerUps;
    this.dayAhead = options.dayAhead ?? false;
    this.onSaleAtClock = options.onSaleAtClock ?? false;
    // An idle connection is kept for a minute, not Node's 5 s: a client busy for longer (a test
    // parsing 81,403 records) may otherwise reuse a socket the server has just closed, before it
    // has read the close (ECONNRESET); the supplier's own servers keep connections longer too.
    this.server = createServer({ keepAlive: true, keepAliveTimeout: 60_000, headersTimeout: 61_000 }, (req, res) => {
      void this.handle(req, res);
    });
  }

  listen(port: number, host: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException) => {
        reject(new TariffsError(ERROR_CODES.SANDBOX_LISTEN, `sandbox cannot listen on ${host}:${port}: ${error.code ?? error.message}`, { cause: error }));
      };
      this.server.once('error', onError);
      this.server.listen(port, host, () => {
        this.server.off('error', onError);
        const address = this.server.address() as AddressInfo;
        this.address = { host, port: address.port };
        this.log.info({ baseUrl: this.baseUrl, faults: this.faults.faults.map((f) => f.spec) }, 'sandbox listening');
        resolve();
      });
    });
  }

  get baseUrl(): string {
    if (!this.address) throw new TariffsError(ERROR_CODES.SANDBOX_STATE, 'the sandbox is not listening');
    return `${originFor(this.address.host, this.address.port)}/v1/`;
  }

  resetRequests(): void {
    this.requests.length = 0;
  }

  setFaults(specs: readonly string[]): void {
    this.faults = new FaultSchedule(parseFaultSpecs(specs));
  }

  setLatency(ms: number): void {
    if (!(Number.isFinite(ms) && ms >= 0)) throw new TariffsError(ERROR_CODES.SANDBOX_STATE, `latency must be >= 0 ms, got ${ms}`);
    this.latencyMs = ms;
  }

  /** Holds every answer not yet sent until the returned function is called: a test's way to keep
   *  a client's run going for as long as it needs, whatever the machine's load. */
  holdResponses(): () => void {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    this.held = held;
    return () => {
      if (this.held === held) this.held = undefined;
      release();
    };
  }

  setVisibleUntil(date: Date | undefined): void {
    this.visibleUntil = date;
  }

  setListed(productCode: string, listed: boolean): void {
    if (listed) this.unlisted.delete(productCode);
    else this.unlisted.add(productCode);
  }

  addTariff(input: AddTariffInput): void {
    this.catalog.addTariff(input);
  }

  tariffs(): TariffSummary[] {
    return this.catalog.summary();
  }

  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      for (const sleeper of this.sleeping) {
        clearTimeout(sleeper.timer);
        sleeper.wake();
      }
      this.sleeping.clear();
      if (!this.server.listening) {
        resolve();
        return;
      }
      this.server.close(() => resolve());
      // Idle keep-alive sockets and the stalled ones the fault kinds hold open.
      this.server.closeAllConnections();
    }).then(() => {
      this.log.info('sandbox closed');
    });
    return this.closing;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const method = req.method ?? 'GET';
    const pathAndQuery = req.url ?? '/';
    const record: RecordedRequest = { method, path: pathAndQuery, headers: { ...req.headers }, at: this.now() };
    this.requests.push(record);
    let fault: string | undefined;
    res.on('close', () => {
      this.log.debug(
        { method, path: pathAndQuery, status: res.headersSent ? res.statusCode : null, ms: Math.round(performance.now() - started), fault },
        'sandbox request',
      );
    });
    try {
      const body = await readBody(req);
      if (body === undefined) {
        this.send(req, res, { status: 413, json: { detail: 'Request body too large.' } });
        return;
      }
      if (body !== '') record.body = body;
      const plan = this.faults.atRequest(pathAndQuery);
      const profilePlan = this.profileFaults.atRequest(pathAndQuery);
      const action = plan.action ?? profilePlan.action;
      const answer = () => {
        const reply = this.route(req, method, pathAndQuery, body);
        if (reply.status === 200 && hasRecords(reply.json)) {
          for (const corrupt of this.faults.atRecords(pathAndQuery)) {
            const results = reply.json.results;
            const index = Math.min(corrupt.index ?? 0, results.length - 1);
            results[index] = corruptRecord(results[index] as Json, corrupt);
            fault = fault ? `${fault}; ${corrupt.spec}` : corrupt.spec;
          }
        }
        return reply;
      };
      // The answer is worked out as the request arrives and sent once the latency has passed, as
      // a server works on requests side by side while the network carries them. Simulating the
      // latency first would make this one thread work on requests that arrived together one after
      // another, each waiting for the others. (With a fault to act, the answer comes after the
      // latency, as before.)
      const ready = action === undefined ? prepareReply(answer(), requestOrigin(req, this.address)) : undefined;
      const delay = this.latencyMs + plan.latencyMs;
      if (delay > 0) await this.sleep(delay);
      if (this.held) await this.held;
      if (this.closing || res.destroyed) return;
      if (ready) {
        writeReply(res, ready);
        return;
      }
      fault = action?.spec;
      if (action?.kind === 'reset') {
        req.socket.resetAndDestroy();
        return;
      }
      if (action?.kind === 'stall-headers') return;
      if (action && STATUS_FAULTS.has(action.kind)) {
        this.send(req, res, statusFault(action, this.now()));
        return;
      }
      this.send(req, res, answer(), action);
    } catch (error) {
      this.log.error({ err: error, method, path: pathAndQuery }, 'sandbox handler failed');
      if (!res.headersSent && !res.destroyed) this.send(req, res, { status: 500, json: { detail: 'Sandbox internal error.' } });
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const sleeper = {
        timer: setTimeout(() => {
          this.sleeping.delete(sleeper);
          resolve();
        }, ms),
        wake: resolve,
      };
      this.sleeping.add(sleeper);
    });
  }

  private route(req: IncomingMessage, method: string, pathAndQuery: string, body: string): Reply {
    const origin = requestOrigin(req, this.address);
    const url = new URL(pathAndQuery, origin);
    const path = url.pathname;
    let m: RegExpExecArray | null;
    if (ROUTES.graphql.test(path)) {
      if (!this.rules.graphql) return NOT_FOUND;
      if (method !== 'POST') return methodNotAllowed(method, 'POST');
      return handleGraphql(body, this.tokens, {
        authorization: req.headers.authorization, accounts: this.catalog.accounts, now: this.now(), faults: this.faults,
        ...(this.powerUps ? { powerUps: this.powerUps } : {}),
      });
    }
    const readOnly = method === 'GET' || method === 'HEAD';
    if (ROUTES.products.test(path)) return readOnly ? this.products(url, origin) : methodNotAllowed(method, 'GET, HEAD');
    if ((m = ROUTES.product.exec(path))) {
      if (!readOnly) return methodNotAllowed(method, 'GET, HEAD');
      if (m[2] === '') return redirectToSlash(url);
      const code = decode(m[1]!);
      return code === undefined ? NOT_FOUND : this.productDetail(code);
    }
    if ((m = ROUTES.rates.exec(path))) {
      if (!readOnly) return methodNotAllowed(method, 'GET, HEAD');
      if (m[5] === '') return redirectToSlash(url);
      const product = decode(m[1]!);
      const tariff = decode(m[3]!);
      if (product === undefined || tariff === undefined) return NOT_FOUND;
      return this.rates(url, origin, product, m[2] as 'electricity' | 'gas', tariff, m[4]!);
    }
    if ((m = ROUTES.account.exec(path))) {
      if (!readOnly) return methodNotAllowed(method, 'GET, HEAD');
      if (m[2] === '') return redirectToSlash(url);
      return this.account(req, decode(m[1]!));
    }
    if ((m = ROUTES.consumption.exec(path)) && this.rules.consumption) {
      if (!readOnly) return methodNotAllowed(method, 'GET, HEAD');
      if (m[4] === '') return redirectToSlash(url);
      const denied = this.authenticate(req.headers.authorization);
      if (denied) return { status: 401, json: { detail: denied }, headers: { 'WWW-Authenticate': 'Basic realm="api"' } };
      const point = decode(m[2]!);
      const serial = decode(m[3]!);
      if (point === undefined || serial === undefined) return NOT_FOUND;
      return consumptionReply(this.catalog, url, origin, m[1] as 'electricity' | 'gas', point, serial, paginate);
    }
    return NOT_FOUND;
  }

  private products(url: URL, origin: string): Reply {
    const params = url.searchParams;
    const errors: ParamError[] = [];
    const brand = lastParam(params, 'brand');
    const flags = BOOLEAN_PRODUCT_FILTERS.map((name) => [name, readBooleanParam(params, name, errors)] as const);
    const availableAt = readDateTimeParam(params, 'available_at', errors) ?? (this.onSaleAtClock ? this.now().getTime() : undefined);
    const asked = readPageSize(params, errors);
    const size = this.rules.productsPageSize ?? asked;
    if (errors.length > 0 && this.rules.productsPageSize === undefined) return { status: 400, json: invalidParametersBody(errors) };
    const extras = this.rules.productExtras;
    const matching = [...this.catalog.products.values()]
      .filter((p) => !this.unlisted.has(String(p.listing.code)))
      .map((p) => (extras ? { ...p.listing, ...extras } : p.listing))
      .filter((p) => brand === undefined || brand === '' || p.brand === brand)
      .filter((p) => flags.every(([name, want]) => want === undefined || p[name] === want))
      .filter((p) => availableAt === undefined || availableAtInstant(p, availableAt))
      .sort((a, b) => String(a.code).localeCompare(String(b.code)));
    return { ...this.paginate(url, origin, matching.length, size, (k) => matching[k]), rewriteHosts: true };
  }

  private productDetail(code: string): Reply {
    const product = this.catalog.products.get(code);
    if (!product) return NOT_FOUND;
    const detail = product.detail.tariffs_active_at === null
      ? { ...product.detail, tariffs_active_at: isoUtc(this.now().getTime()) }
      : product.detail;
    return { status: 200, json: detail, rewriteHosts: true };
  }

  private rates(url: URL, origin: string, productCode: string, fuel: 'electricity' | 'gas', tariffCode: string, kindText: string): Reply {
    if (!this.catalog.products.has(productCode)) return NOT_FOUND;
    const tariff = this.catalog.tariffs.get(tariffCode);
    const kind = kindText as RatePath;
    if (!tariff || tariff.productCode !== productCode || tariff.fuel !== fuel) return NOT_FOUND;
    if (!RATE_KINDS.includes(kind) || !kindsFor(tariff).includes(kind)) return NOT_FOUND;
    if (!this.rules.fuels.has(fuel) || (this.rules.rateEndpoints && !this.rules.rateEndpoints.has(kind))) return NOT_FOUND;
    const params = url.searchParams;
    const errors: ParamError[] = [];
    const periodFrom = readDateTimeParam(params, 'period_from', errors);
    const periodTo = readDateTimeParam(params, 'period_to', errors);
    // A fixed page size ignores page_size, whatever its value (as a server that does not know it).
    const sizeErrors: ParamError[] = [];
    const size = this.rules.ratesPageSize ?? readPageSize(params, sizeErrors);
    if (this.rules.ratesPageSize === undefined) errors.push(...sizeErrors);
    if (errors.length > 0) return { status: 400, json: invalidParametersBody(errors) };
    const series: RateSeries | undefined = tariff.series.get(kind);
    if (!series) return this.paginate(url, origin, 0, size, () => undefined);
    const selection = series.select(periodFrom, periodTo, this.visibleLimit(series));
    return this.paginate(url, origin, selection.count, size, (k) => series.record(selection.indexAt(k)));
  }

  /** Rates starting at or after it are not published yet (visibleUntil; with dayAhead, a
   *  half-hourly series's days after those published by the clock). */
  private visibleLimit(series: RateSeries): number | undefined {
    const fixed = this.visibleUntil?.getTime();
    const first = series.length > 0 ? series.record(0) : undefined;
    const halfHourly = first !== undefined && first.valid_to !== null && Date.parse(first.valid_to) - Date.parse(first.valid_from) === 30 * 60_000;
    if (!this.dayAhead || !halfHourly) return fixed;
    const published = publishedUntil(this.now());
    return fixed === undefined ? published : Math.min(fixed, published);
  }

  /** A list page, with the profile's undocumented envelope fields. */
  private paginate(url: URL, origin: string, count: number, size: number, item: (k: number) => unknown): Reply {
    const reply = paginate(url, origin, count, size, item);
    const extras = this.rules.envelopeExtras;
    if (extras && reply.status === 200) reply.json = { ...(reply.json as object), ...extras };
    return reply;
  }

  private account(req: IncomingMessage, number: string | undefined): Reply {
    const denied = this.authenticate(req.headers.authorization);
    if (denied) return { status: 401, json: { detail: denied }, headers: { 'WWW-Authenticate': 'Basic realm="api"' } };
    const account = number === undefined ? undefined : this.catalog.accounts.get(number);
    return account ? { status: 200, json: account } : NOT_FOUND;
  }

  /** undefined when the credentials are good, else the 401 detail. */
  private authenticate(header: string | undefined): string | undefined {
    const missing = 'Authentication credentials were not provided.';
    if (!header) return missing;
    const basic = /^Basic\s+(\S+)$/i.exec(header);
    if (basic) {
      const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      const user = colon === -1 ? decoded : decoded.slice(0, colon);
      return SANDBOX_API_KEYS.includes(user) ? undefined : 'Invalid API key.';
    }
    const token = /^Token\s+(\S+)$/i.exec(header);
    if (token) {
      const check = this.tokens.check(token[1]!);
      if (check === 'valid') return undefined;
      return check === 'expired' ? 'Token has expired.' : 'Invalid token.';
    }
    return missing;
  }

  private send(req: IncomingMessage, res: ServerResponse, reply: Reply, mode?: FaultSpec): void {
    writeReply(res, prepareReply(reply, requestOrigin(req, this.address)), mode);
  }
}

function availableAtInstant(listing: Json, at: number): boolean {
  const from = typeof listing.available_from === 'string' ? Date.parse(listing.available_from) : -Infinity;
  const to = typeof listing.available_to === 'string' ? Date.parse(listing.available_to) : Infinity;
  return from <= at && at < to;
}

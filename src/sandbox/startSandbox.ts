// Public entry of the local sandbox of the supplier's REST interface: start one on a port (0 = any
// free port), point a client at `baseUrl`, inspect `requests`, inject faults, close it.
import type { IncomingHttpHeaders } from 'node:http';
import { ERROR_CODES, TariffsError } from '../errors.js';
import { silentLogger, type Logger } from '../log/createLogger.js';
import { parseFaultSpecs } from './faults.js';
import { loadSandboxData } from './loadSandboxData.js';
import { SANDBOX_PROFILES, type SandboxProfile } from './profiles.js';
import type { AddTariffInput, TariffSummary } from './SandboxCatalog.js';
import { DEFAULT_TOKEN_TTL_SECONDS } from './sandboxCredentials.js';
import type { SandboxFlexEvent } from './sandboxFlexibility.js';
import { SandboxServer } from './SandboxServer.js';

export { SANDBOX_ACCOUNT, SANDBOX_API_KEY, SANDBOX_API_KEY_32, SANDBOX_API_KEY_40, DEFAULT_TOKEN_TTL_SECONDS } from './sandboxCredentials.js';
export { FAULT_KINDS, parseFaultSpec } from './faults.js';
export { SANDBOX_EV_ACCOUNT, SANDBOX_EV_DEVICE, EV_HOUSEHOLD, COMPLETED_DISPATCHES, plannedDispatchesAt } from './sandboxDispatches.js';
export { SANDBOX_PROFILES, SPEC_PROFILE_FAULTS, type SandboxProfile } from './profiles.js';
export type { SandboxFlexEvent } from './sandboxFlexibility.js';
export { halfHourlyRates } from './halfHourlyRates.js';
export type { AddTariffInput, RatePath, TariffSummary } from './SandboxCatalog.js';
export type { RateInput, RateRecord } from './RateSeries.js';

export interface SandboxOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Delay before every response, in ms (default 0). */
  latencyMs?: number;
  /** Fault specs (grammar in src/sandbox/faults.ts); a malformed one makes startSandbox throw. */
  faults?: string[];
  /** Rates with valid_from at or after this instant are not published yet. */
  visibleUntil?: Date;
  /** Half-hourly prices published as the supplier publishes Agile's: a day's at 16:00
   *  Europe/London the day before, by `now` (default false: everything recorded). */
  dayAhead?: boolean;
  /** GET /products/ without available_at lists the products available at `now`, as the
   *  supplier's does (default false: every product recorded). */
  onSaleAtClock?: boolean;
  logger?: Logger;
  /** Lifetime of tokens from obtainKrakenToken (default 3600). */
  tokenTtlSeconds?: number;
  /** The clock for token expiry, tariffs_active_at and Retry-After dates (default: real time). */
  now?: () => Date;
  /** Where the recorded files live (default data/sandbox/ of the package). */
  dataDir?: string;
  /** `default` serves everything recorded; `spec` only what the documented interface has
   *  (src/sandbox/profiles.ts). */
  profile?: SandboxProfile;
  /** Fault specs in place of those the profile comes with (spec: SPEC_PROFILE_FAULTS); a
   *  malformed one makes startSandbox throw. */
  profileFaults?: string[];
  /** Power Ups (the free_electricity campaign's events) served for these import MPANs, in place
   *  of the sandbox's own (default: the EV household's, POWER_UPS); any account may ask. */
  powerUps?: Readonly<Record<string, readonly SandboxFlexEvent[]>>;
}

export interface RecordedRequest {
  method: string;
  /** Path and query exactly as the client sent them, e.g. `/v1/products/?brand=X`. */
  path: string;
  /** Lower-case header names, as node:http parsed them. */
  headers: IncomingHttpHeaders;
  /** The request body, when there was one (GraphQL posts). */
  body?: string;
  at: Date;
}

export interface Sandbox {
  /** `http://127.0.0.1:PORT/v1/` */
  readonly baseUrl: string;
  /** Every request received, in arrival order (cleared by resetRequests, same array). */
  readonly requests: RecordedRequest[];
  resetRequests(): void;
  /** Replaces the faults in force (counters start again); throws on a malformed spec, keeping the old ones. */
  setFaults(specs: readonly string[]): void;
  setLatency(ms: number): void;
  /** Holds every answer not yet sent until the returned function is called (tests keep a run going). */
  holdResponses(): () => void;
  setVisibleUntil(date: Date | undefined): void;
  /** Registers (or replaces the given rates of) a tariff; an unknown product is made up and listed. */
  addTariff(input: AddTariffInput): void;
  /** Takes a product off the products list (withdrawn), its detail and rates still answering as a
   *  retired product's do; `false` lists it again. */
  setListed(productCode: string, listed: boolean): void;
  /** Every tariff × rate kind with data: row counts and valid_from range. */
  tariffs(): TariffSummary[];
  /** Stops listening, drops every connection (idle, stalled or mid-response) and pending delay. */
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new TariffsError(ERROR_CODES.SANDBOX_OPTIONS, `port must be 0-65535, got ${port}`);
  }
  const latencyMs = options.latencyMs ?? 0;
  if (!(Number.isFinite(latencyMs) && latencyMs >= 0)) {
    throw new TariffsError(ERROR_CODES.SANDBOX_OPTIONS, `latencyMs must be >= 0, got ${latencyMs}`);
  }
  const tokenTtlSeconds = options.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS;
  if (!(Number.isFinite(tokenTtlSeconds) && tokenTtlSeconds > 0)) {
    throw new TariffsError(ERROR_CODES.SANDBOX_OPTIONS, `tokenTtlSeconds must be > 0, got ${tokenTtlSeconds}`);
  }
  const faults = parseFaultSpecs(options.faults ?? []);
  const profileFaults = options.profileFaults && parseFaultSpecs(options.profileFaults);
  const profile = options.profile ?? 'default';
  if (!SANDBOX_PROFILES.includes(profile)) {
    throw new TariffsError(ERROR_CODES.SANDBOX_OPTIONS, `profile must be one of ${SANDBOX_PROFILES.join(', ')}, got ${String(profile)}`);
  }
  const server = new SandboxServer({
    catalog: loadSandboxData(options.dataDir),
    logger: (options.logger ?? silentLogger()).child({ component: 'sandbox' }),
    faults,
    latencyMs,
    ...(options.visibleUntil ? { visibleUntil: options.visibleUntil } : {}),
    ...(options.dayAhead ? { dayAhead: true } : {}),
    ...(options.onSaleAtClock ? { onSaleAtClock: true } : {}),
    tokenTtlSeconds,
    now: options.now ?? (() => new Date()),
    profile,
    ...(profileFaults ? { profileFaults } : {}),
    ...(options.powerUps ? { powerUps: options.powerUps } : {}),
  });
  await server.listen(port, options.host ?? '127.0.0.1');
  return server;
}

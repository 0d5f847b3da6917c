// Faults the sandbox injects on demand, so clients can be tested against the failures of a real
// network and server. Deterministic: which request a fault hits depends only on request order.
// The grammar of a spec is above parseFaultSpec.
import { UsageError } from '../errors.js';

export const FAULT_KINDS = [
  'latency', '429', '500', '502', '503', '504', 'reset', 'stall-headers', 'stall-body', 'truncate', 'invalid-record',
  'dispatches-vanish', 'dispatches-late', 'graphql-error', 'blocked',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultSpec {
  /** The text the fault was parsed from, for logs and error messages. */
  spec: string;
  kind: FaultKind;
  path?: string;
  after: number;
  every: number;
  times?: number;
  ms?: number;
  retryAfter?: number;
  retryAfterDate?: number;
  bytes?: number;
  field?: string;
  value?: string;
  index?: number;
  /** graphql-error: the errorCode and the field it answers */
  code?: string;
  /** blocked: the page served (an HTML "Request blocked" page, nothing, or JSON that is not the API's error) */
  body?: 'html' | 'empty' | 'json';
}

const SELECTORS = ['path', 'after', 'every', 'times'];
const RETRY = ['retry_after', 'retry_after_date'];
const OPTIONS_BY_KIND: Record<FaultKind, string[]> = {
  latency: ['ms'],
  '429': RETRY,
  '500': RETRY,
  '502': RETRY,
  '503': RETRY,
  '504': RETRY,
  reset: [],
  'stall-headers': [],
  'stall-body': ['bytes'],
  truncate: ['bytes'],
  'invalid-record': ['field', 'value', 'index'],
  'dispatches-vanish': [],
  'dispatches-late': [],
  'graphql-error': ['code', 'field', ...RETRY],
  blocked: [...RETRY, 'body'],
};

/** Faults that act on GraphQL answers, not on the HTTP response. */
export const GRAPHQL_FAULTS: ReadonlySet<FaultKind> = new Set(['dispatches-vanish', 'dispatches-late', 'graphql-error']);

/** The GraphQL field a GraphQL fault acts on. */
export function graphqlFaultField(fault: FaultSpec): string {
  if (fault.kind === 'dispatches-late') return 'completedDispatches';
  if (fault.kind === 'graphql-error') return fault.field ?? 'flexPlannedDispatches';
  return 'flexPlannedDispatches';
}

export const STATUS_FAULTS: ReadonlySet<FaultKind> = new Set(['429', '500', '502', '503', '504', 'blocked']);

/**
 * Parses one spec; a malformed spec throws a UsageError that quotes it.
 *
 * Grammar of a fault spec (one per --fault flag or array element):
 *
 *   SPEC     := KIND [ ':' OPTION { ',' OPTION } ]
 *   OPTION   := KEY '=' VALUE            (VALUE runs to the next ','; it may contain '=')
 *
 *   KIND             what happens                                     KIND-specific options
 *   latency          wait before answering                            ms=N (required)
 *   429              429 Too Many Requests, DRF-style JSON body       retry_after=SECONDS | retry_after_date=SECONDS
 *   500              500 with Django's HTML error page                retry_after…, as for 429
 *   502 / 504        HTML body from a "load balancer"                 retry_after…
 *   503              DRF's JSON "Service temporarily unavailable"     retry_after…
 *   blocked          403 from the "edge": an HTML "Request blocked"    retry_after…, body=html (default)
 *                    page, not the API's JSON error                   | empty (no body at all) | json
 *                                                                     (a JSON body without the API's detail)
 *   reset            destroy the socket (TCP RST) before answering    –
 *   stall-headers    never send the status line: the client must time out
 *   stall-body       send headers (full Content-Length) and part of the body, then stall   bytes=N
 *   truncate         send part of the JSON body, then end the response cleanly (chunked)  bytes=N
 *   invalid-record   one record of a page gets a bad field            field=NAME (default value_inc_vat),
 *                                                                     value=TEXT (default abc; 'missing'
 *                                                                     deletes the field, 'null' sets null),
 *                                                                     index=N (record, default 0)
 *   dispatches-vanish  planned dispatches: the first slot gone, the second moved 30 min later  –
 *   dispatches-late    completed dispatches: those that ended in the last 24 h held back      –
 *   graphql-error      a GraphQL field answers errors[] with extensions.errorCode               code=TEXT (default
 *                                                                     KT-CT-4340), field=NAME (default
 *                                                                     flexPlannedDispatches), retry_after…
 *                                                                     (the HTTP 200 carries Retry-After)
 *
 * The three GraphQL kinds count only GraphQL requests that ask for their field
 * (flexPlannedDispatches, completedDispatches, or field=): path= is matched against '/v1/graphql/'.
 * graphql-error with field=obtainKrakenToken fails the token call (code defaults to KT-CT-1199 there).
 *
 *   Selectors, for every kind:
 *   path=SUBSTRING   only requests whose path+query contains SUBSTRING
 *   after=N          skip the first N matching requests (default 0)
 *   every=N          then hit every Nth matching request (default 1 = each one)
 *   times=N          hit at most N requests in all (default unlimited)
 *
 * retry_after=S sends `Retry-After: S`; retry_after_date=S sends an HTTP date S seconds from now.
 * bytes defaults to half the body. invalid-record counts only 200 responses that carry records.
 * When several non-latency faults hit one request the first listed wins (the others still count it);
 * latency faults add up and combine with any other fault.
 */
export function parseFaultSpec(text: string): FaultSpec {
  const fail = (why: string): never => {
    throw new UsageError(`fault spec '${text}': ${why}`);
  };
  const trimmed = text.trim();
  const colon = trimmed.indexOf(':');
  const kindText = colon === -1 ? trimmed : trimmed.slice(0, colon);
  if (!(FAULT_KINDS as readonly string[]).includes(kindText)) {
    fail(`unknown kind '${kindText}' (expected one of ${FAULT_KINDS.join(', ')})`);
  }
  const kind = kindText as FaultKind;
  const fault: FaultSpec = { spec: trimmed, kind, after: 0, every: 1 };
  const allowed = [...SELECTORS, ...OPTIONS_BY_KIND[kind]];
  const seen = new Set<string>();
  const optionText = colon === -1 ? '' : trimmed.slice(colon + 1);
  if (colon !== -1 && optionText === '') fail(`nothing after ':'`);
  for (const option of optionText === '' ? [] : optionText.split(',')) {
    const eq = option.indexOf('=');
    if (eq <= 0) fail(`option '${option}' is not KEY=VALUE`);
    const key = option.slice(0, eq).trim();
    const value = option.slice(eq + 1).trim();
    if (!allowed.includes(key)) fail(`'${key}' is not an option of ${kind} (options: ${allowed.join(', ')})`);
    if (seen.has(key)) fail(`'${key}' given twice`);
    seen.add(key);
    const int = (min: number): number => {
      if (!/^\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
        fail(`${key}=${value}: expected a whole number >= ${min}`);
      }
      return Number(value);
    };
    switch (key) {
      case 'path':
        if (value === '') fail('path= is empty');
        fault.path = value;
        break;
      case 'after': fault.after = int(0); break;
      case 'every': fault.every = int(1); break;
      case 'times': fault.times = int(1); break;
      case 'ms': fault.ms = int(0); break;
      case 'retry_after': fault.retryAfter = int(0); break;
      case 'retry_after_date': fault.retryAfterDate = int(0); break;
      case 'bytes': fault.bytes = int(0); break;
      case 'index': fault.index = int(0); break;
      case 'field':
        if (value === '') fail('field= is empty');
        fault.field = value;
        break;
      case 'value': fault.value = value; break;
      case 'code':
        if (value === '') fail('code= is empty');
        fault.code = value;
        break;
      case 'body':
        if (value !== 'html' && value !== 'empty' && value !== 'json') fail(`body=${value}: expected html, empty or json`);
        fault.body = value as 'html' | 'empty' | 'json';
        break;
    }
  }
  if (kind === 'latency' && fault.ms === undefined) fail('latency needs ms=N');
  if (fault.retryAfter !== undefined && fault.retryAfterDate !== undefined) {
    fail('give retry_after or retry_after_date, not both');
  }
  return fault;
}

export function parseFaultSpecs(texts: readonly string[]): FaultSpec[] {
  return texts.map(parseFaultSpec);
}

export interface RequestFaultPlan {
  /** Sum of the latency faults that hit this request. */
  latencyMs: number;
  /** The fault that decides the response, if any (never latency or invalid-record). */
  action?: FaultSpec;
}

interface Counter {
  fault: FaultSpec;
  seen: number;
  fired: number;
}

/** The faults in force plus how many requests each has seen: the whole of the fault state. */
export class FaultSchedule {
  private counters: Counter[];

  constructor(faults: readonly FaultSpec[] = []) {
    this.counters = faults.map((fault) => ({ fault, seen: 0, fired: 0 }));
  }

  get faults(): FaultSpec[] {
    return this.counters.map((c) => c.fault);
  }

  /** Called once per request on arrival: advances every matching counter except invalid-record. */
  atRequest(pathAndQuery: string): RequestFaultPlan {
    const plan: RequestFaultPlan = { latencyMs: 0 };
    for (const counter of this.counters) {
      if (counter.fault.kind === 'invalid-record' || GRAPHQL_FAULTS.has(counter.fault.kind)) continue;
      if (!hit(counter, pathAndQuery)) continue;
      if (counter.fault.kind === 'latency') plan.latencyMs += counter.fault.ms ?? 0;
      else plan.action ??= counter.fault;
    }
    return plan;
  }

  /** Called once per GraphQL field asked for: the GraphQL faults on that field that hit it. */
  atGraphqlField(field: string): FaultSpec[] {
    return this.counters
      .filter((c) => GRAPHQL_FAULTS.has(c.fault.kind) && graphqlFaultField(c.fault) === field && hit(c, '/v1/graphql/'))
      .map((c) => c.fault);
  }

  /** Called for a 200 response that carries records: the invalid-record faults that hit it. */
  atRecords(pathAndQuery: string): FaultSpec[] {
    return this.counters
      .filter((c) => c.fault.kind === 'invalid-record' && hit(c, pathAndQuery))
      .map((c) => c.fault);
  }
}

function hit(counter: Counter, pathAndQuery: string): boolean {
  const { fault } = counter;
  if (fault.path !== undefined && !pathAndQuery.includes(fault.path)) return false;
  counter.seen += 1;
  const n = counter.seen - fault.after;
  if (n < 1 || n % fault.every !== 0) return false;
  if (fault.times !== undefined && counter.fired >= fault.times) return false;
  counter.fired += 1;
  return true;
}

/** Applies an invalid-record fault to one record (a fresh copy the caller may replace the original with). */
export function corruptRecord(record: Record<string, unknown>, fault: FaultSpec): Record<string, unknown> {
  const copy = structuredClone(record);
  const field = fault.field ?? 'value_inc_vat';
  const value = fault.value ?? 'abc';
  if (value === 'missing') delete copy[field];
  else if (value === 'null') copy[field] = null;
  else copy[field] = value;
  return copy;
}

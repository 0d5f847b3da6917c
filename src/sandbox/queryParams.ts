// Query parameters as the real interface reads them: ISO 8601 datetimes (naive = Europe/London),
// booleans, page and page_size, with errors collected into the API's 400 envelope.
import { instantsOfLondonWall, londonOffsetMs } from '../time/index.js';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1500;

export interface ParamError {
  detail: string;
  code: 'invalid';
  attr: string;
}

/** The spec's validation envelope for bad query parameters. */
export function invalidParametersBody(errors: ParamError[]): {
  detail: string;
  code: string;
  errors: ParamError[];
} {
  return { detail: 'Invalid query parameters.', code: 'invalid_parameters', errors };
}

const DAY_MS = 86_400_000;

/**
 * The instant a naive Europe/London wall time (ms since 1970-01-01T00:00 local) names as the
 * supplier's API reads it (as date-fns-tz's fromZonedTime does): in the repeated autumn hour the
 * later (GMT) instant; a time skipped in spring read with the offset after the gap (01:30 → 00:30Z).
 */
export function readLondonWallAsApi(wallMs: number): number {
  return instantsOfLondonWall(wallMs).at(-1) ?? wallMs - londonOffsetMs(wallMs + DAY_MS);
}

const DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * Milliseconds since the epoch, or undefined when the text is not an ISO 8601 date or datetime.
 * With `Z` or an offset the instant is exact; without, the wall-clock time is read in Europe/London
 * (readLondonWallAsApi: an hour repeated in October reads as GMT, the later instant; a time
 * skipped in March reads with the BST offset, e.g. 01:30 → 00:30Z). A date alone is local midnight.
 */
export function parseApiDateTime(text: string): number | undefined {
  const m = DATETIME.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, hh = '00', mi = '00', ss = '00', frac = '', zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (Number(hh) > 23 || Number(mi) > 59 || Number(ss) > 59) return undefined;
  const millis = frac === '' ? 0 : Math.floor(Number(`0.${frac}`) * 1000);
  if (zone === undefined) {
    return readLondonWallAsApi(Date.UTC(year, month - 1, day, Number(hh), Number(mi), Number(ss), millis));
  }
  const utc = Date.UTC(year, month - 1, day, Number(hh), Number(mi), Number(ss), millis);
  if (zone === 'Z' || zone === 'z') return utc;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const offH = Number(digits.slice(0, 2));
  const offM = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (offH > 23 || offM > 59) return undefined;
  return utc - sign * (offH * 60 + offM) * 60_000;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The last value of a repeated parameter (Django's QueryDict.get). */
export function lastParam(params: URLSearchParams, name: string): string | undefined {
  const all = params.getAll(name);
  return all.length === 0 ? undefined : all[all.length - 1];
}

export function readDateTimeParam(params: URLSearchParams, name: string, errors: ParamError[]): number | undefined {
  const text = lastParam(params, name);
  if (text === undefined || text === '') return undefined;
  const ms = parseApiDateTime(text);
  if (ms === undefined) {
    errors.push({
      detail: `Enter a valid date/time (ISO 8601, e.g. 2024-03-31T00:00:00Z); got '${text}'.`,
      code: 'invalid',
      attr: name,
    });
  }
  return ms;
}

export function readBooleanParam(params: URLSearchParams, name: string, errors: ParamError[]): boolean | undefined {
  const text = lastParam(params, name);
  if (text === undefined || text === '') return undefined;
  const lower = text.toLowerCase();
  if (lower === 'true' || lower === '1') return true;
  if (lower === 'false' || lower === '0') return false;
  errors.push({ detail: `Enter true or false; got '${text}'.`, code: 'invalid', attr: name });
  return undefined;
}

export function readPageSize(params: URLSearchParams, errors: ParamError[]): number {
  const text = lastParam(params, 'page_size');
  if (text === undefined || text === '') return DEFAULT_PAGE_SIZE;
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(n >= 1 && n <= MAX_PAGE_SIZE)) {
    errors.push({
      detail: `page_size must be a whole number from 1 to ${MAX_PAGE_SIZE}; got '${text}'.`,
      code: 'invalid',
      attr: 'page_size',
    });
    return DEFAULT_PAGE_SIZE;
  }
  return n;
}

/** The requested page number; undefined when it is not a positive whole number (a 404, like DRF). */
export function readPage(params: URLSearchParams): number | undefined {
  const text = lastParam(params, 'page');
  if (text === undefined || text === '') return 1;
  if (text === 'last') return Infinity;
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  return n >= 1 && Number.isSafeInteger(n) ? n : undefined;
}

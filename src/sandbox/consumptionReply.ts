// GET /v1/{electricity|gas}-meter-points/{point}/meters/{serial}/consumption/ in the sandbox:
// the meters of the sandbox's accounts (others 404), newest first unless order_by=period,
// period_from/period_to overlap filters, page_size up to 25,000 (the real API's limit).
import { lastParam, invalidParametersBody, readDateTimeParam, type ParamError } from './queryParams.js';
import { meterKey, type Json, type SandboxCatalog } from './SandboxCatalog.js';

const DEFAULT_SIZE = 100;
const MAX_SIZE = 25_000;

interface ReplyLike {
  status: number;
  json?: unknown;
}

type Paginate<R> = (url: URL, origin: string, count: number, size: number, item: (k: number) => unknown) => R;

export function consumptionReply<R extends ReplyLike>(
  catalog: SandboxCatalog, url: URL, origin: string, fuel: 'electricity' | 'gas', point: string, serial: string, paginate: Paginate<R>,
): R | ReplyLike {
  if (!meterOnAnAccount(catalog, fuel, point, serial)) return { status: 404, json: { detail: 'Not found.' } };
  const params = url.searchParams;
  const errors: ParamError[] = [];
  const periodFrom = readDateTimeParam(params, 'period_from', errors);
  const periodTo = readDateTimeParam(params, 'period_to', errors);
  const sizeText = lastParam(params, 'page_size');
  let size = DEFAULT_SIZE;
  if (sizeText !== undefined && sizeText !== '') {
    const n = /^\d+$/.test(sizeText) ? Number(sizeText) : NaN;
    if (n >= 1 && n <= MAX_SIZE) size = n;
    else errors.push({ detail: `page_size must be a whole number from 1 to ${MAX_SIZE}; got '${sizeText}'.`, code: 'invalid', attr: 'page_size' });
  }
  const order = lastParam(params, 'order_by') ?? '-period';
  if (order !== 'period' && order !== '-period') {
    errors.push({ detail: `"${order}" is not a valid choice.`, code: 'invalid', attr: 'order_by' });
  }
  if (errors.length > 0) return { status: 400, json: invalidParametersBody(errors) };
  const series = catalog.consumption.get(meterKey(fuel, point, serial));
  if (!series) return paginate(url, origin, 0, size, () => undefined);
  const { first, count } = series.select(periodFrom, periodTo);
  return paginate(url, origin, count, size, (k) => series.record(order === 'period' ? first + k : first + count - 1 - k));
}

function meterOnAnAccount(catalog: SandboxCatalog, fuel: 'electricity' | 'gas', point: string, serial: string): boolean {
  for (const account of catalog.accounts.values()) {
    for (const property of (account.properties ?? []) as Json[]) {
      const points = (fuel === 'electricity' ? property.electricity_meter_points : property.gas_meter_points) as Json[] | undefined;
      for (const p of points ?? []) {
        if ((fuel === 'electricity' ? p.mpan : p.mprn) !== point) continue;
        if (((p.meters ?? []) as Json[]).some((m) => m.serial_number === serial)) return true;
      }
    }
  }
  return false;
}

// Helpers for warehouse tests: temp DuckDB files, a fingerprint of unit_rates to compare runs,
// and an in-process ingest against a sandbox.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HttpClientOptions } from '../../src/api/HttpClient.js';
import { loadConfig, type Config } from '../../src/config/loadConfig.js';
import { runIngest, type IngestRequest, type IngestSummary } from '../../src/ingest/ingest.js';
import { silentLogger } from '../../src/log/createLogger.js';
import { Warehouse } from '../../src/store/Warehouse.js';

export function tempDir(prefix = 'tariffs-'): { dir: string; file: (name: string) => string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, file: (name) => join(dir, name), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function testConfig(db: string, baseUrl: string, extra: Partial<Config> = {}): Promise<Config> {
  return { ...(await loadConfig({ db, baseUrl }, {})), ...extra };
}

/** Every wait the in-process ingests of this file asked their HTTP client for, in ms (back-off and
 *  Retry-After), in order. The client takes its sleep as an option: these ingests wait on the
 *  test's clock, not the machine's (the spec profile throttles one request in 17 with
 *  `Retry-After: 1`, otherwise a real second each time). */
export const requestedWaits: number[] = [];

export function recordedSleep(ms: number): Promise<void> {
  requestedWaits.push(ms);
  return new Promise((resolve) => setImmediate(resolve));
}

export async function ingest(
  db: string, baseUrl: string, request: Partial<IngestRequest>, extra: Partial<Config> = {},
  http: HttpClientOptions = { retry: { baseDelayMs: 5, maxDelayMs: 20 }, sleep: recordedSleep },
): Promise<IngestSummary> {
  return runIngest(
    { tariffs: [], products: [], accounts: [], ...request },
    { config: await testConfig(db, baseUrl, extra), logger: silentLogger(), http },
  );
}

/** A digest of the stored rates (every column but run_id), to compare two warehouses. */
export async function ratesFingerprint(db: string): Promise<{ rows: number; digest: string }> {
  const row = await opened(db, { readOnly: true }, (w) => w.one(`SELECT count(*) AS rows, md5(coalesce(string_agg(
        concat_ws('|', tariff_code, rate_type, valid_from, valid_to, value_exc_vat, value_inc_vat, payment_method,
                  local_date, local_start, utc_offset_minutes, settlement_period), ','
        ORDER BY tariff_code, rate_type, valid_from, payment_method), '')) AS digest
      FROM unit_rates`));
  return { rows: row!.rows as number, digest: row!.digest as string };
}

export async function query(db: string, sql: string): Promise<Record<string, unknown>[]> {
  return opened(db, { readOnly: true }, (w) => w.all(sql));
}

/** `fn` on the warehouse `file` opened with `options`, closed after whatever happens. */
export async function opened<T>(file: string, options: Parameters<typeof Warehouse.open>[1], fn: (w: Warehouse) => Promise<T>): Promise<T> {
  const warehouse = await Warehouse.open(file, options);
  try {
    return await fn(warehouse);
  } finally {
    warehouse.close();
  }
}

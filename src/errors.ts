// One base error with a stable machine-readable `code`; every module's errors extend it,
// so the CLI edge can map codes to exit statuses and messages without string matching.

/** The codes of TariffsError and its subclasses, storage errors' included (StorageError.ts;
 *  event errors have their own set, EventError.ts). Compare with these, not a spelled-out string. */
export const ERROR_CODES = {
  API_VALIDATION: 'API_VALIDATION', AUTH: 'AUTH', BASE_URL: 'BASE_URL', BLOCKED: 'BLOCKED', CONSUMPTION_CSV: 'CONSUMPTION_CSV',
  COUNT_MISMATCH: 'COUNT_MISMATCH', DB_BUSY: 'DB_BUSY', DB_CORRUPT: 'DB_CORRUPT', DB_DIRECTORY: 'DB_DIRECTORY',
  DB_DISK_FULL: 'DB_DISK_FULL', DB_INVALIDATED: 'DB_INVALIDATED', DB_IO: 'DB_IO',
  DB_OPEN: 'DB_OPEN', DEMO_INGEST: 'DEMO_INGEST', EVENT_CATALOG: 'EVENT_CATALOG',
  EVENT_INPUT: 'EVENT_INPUT', EXPORT_DIR: 'EXPORT_DIR', EXPORT_QUERY: 'EXPORT_QUERY',
  FOREIGN_NEXT_URL: 'FOREIGN_NEXT_URL', GRAPHQL: 'GRAPHQL', HTTP_STATUS: 'HTTP_STATUS',
  IMPORT_FILE: 'IMPORT_FILE', INCOMPLETE_RANGE: 'INCOMPLETE_RANGE',
  INVALID_RECORD: 'INVALID_RECORD', INVALID_RESPONSE: 'INVALID_RESPONSE', NETWORK: 'NETWORK',
  NO_DATA: 'NO_DATA', NO_DATABASE: 'NO_DATABASE', PAGINATION_LOOP: 'PAGINATION_LOOP',
  RETRIES_EXHAUSTED: 'RETRIES_EXHAUSTED', RETRY_AFTER_TOO_LONG: 'RETRY_AFTER_TOO_LONG',
  SANDBOX_DATA: 'SANDBOX_DATA', SANDBOX_LISTEN: 'SANDBOX_LISTEN',
  SANDBOX_OPTIONS: 'SANDBOX_OPTIONS', SANDBOX_STATE: 'SANDBOX_STATE', SCHEMA: 'SCHEMA', SQL_PARAM: 'SQL_PARAM',
  TIMEOUT: 'TIMEOUT', TIME_INVALID: 'TIME_INVALID', USAGE: 'USAGE', VACUUM: 'VACUUM',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

export interface TariffsErrorOptions {
  cause?: unknown;
}

export class TariffsError extends Error {
  override readonly name: string = 'TariffsError';
  readonly code: string;

  constructor(code: string, message: string, options: TariffsErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}

/** Bad input from the user (a flag, file or value): the CLI prints usage hints and exits 2. */
export class UsageError extends TariffsError {
  override readonly name = 'UsageError';
  constructor(message: string, options: TariffsErrorOptions = {}) {
    super(ERROR_CODES.USAGE, message, options);
  }
}

/** Another process holds the database for writing: exit 75 (EX_TEMPFAIL), nothing written. */
export class DatabaseBusyError extends TariffsError {
  override readonly name = 'DatabaseBusyError';
  readonly file: string;
  constructor(file: string, options: TariffsErrorOptions & { message?: string } = {}) {
    super(ERROR_CODES.DB_BUSY, options.message ?? `database is in use by another process: ${file}`, options);
    this.file = file;
  }
}

/** A question asked of data that is not there (no rates for a tariff in a range). */
export class NoDataError extends TariffsError {
  override readonly name = 'NoDataError';
  constructor(message: string, options: TariffsErrorOptions = {}) {
    super(ERROR_CODES.NO_DATA, message, options);
  }
}

export const EXIT = { OK: 0, FAILURE: 1, USAGE: 2, NOT_NOW: 3, BUSY: 75 } as const;

// One base error with a stable machine-readable `code`; every module's errors extend it,
// so the CLI edge can map codes to exit statuses and messages without string matching.

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
    super('USAGE', message, options);
  }
}

/** Another process holds the database for writing: exit 75 (EX_TEMPFAIL), nothing written. */
export class DatabaseBusyError extends TariffsError {
  override readonly name = 'DatabaseBusyError';
  readonly file: string;
  constructor(file: string, options: TariffsErrorOptions & { message?: string } = {}) {
    super('DB_BUSY', options.message ?? `database is in use by another process: ${file}`, options);
    this.file = file;
  }
}

/** A question asked of data that is not there (no rates for a tariff in a range). */
export class NoDataError extends TariffsError {
  override readonly name = 'NoDataError';
  constructor(message: string, options: TariffsErrorOptions = {}) {
    super('NO_DATA', message, options);
  }
}

export const EXIT = { OK: 0, FAILURE: 1, USAGE: 2, NOT_NOW: 3, BUSY: 75 } as const;

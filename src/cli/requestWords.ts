// The CLI's words for analytics' requests: each request field is the flag that sets it, and
// missing data comes with the command that stores it. The one place fields map to flags.
import { NoDataError, UsageError } from '../errors.js';
import { isWorded, type Advice, type RequestField, type Words } from '../analytics/requestErrors.js';

const FLAGS: Record<RequestField, string> = {
  from: '--from', to: '--to', count: '--count', maxPrice: '--max-price', minPrice: '--min-price',
  weights: '--weights', weightsFrom: '--weights-from', band: '--between', now: '--now',
  minRemaining: '--min-remaining', tariffs: '--tariff', meter: '--meter', importMeter: '--meter', exportMeter: '--export-meter',
  dispatches: '--dispatches', horizon: '--ahead', asOf: '--as-of',
};

const ADVICE: Record<Advice, string> = {
  storeTariff: ' (`tariffs tariffs` lists the stored ones; `tariffs ingest --tariff CODE` stores one)',
  storeMeterReadings: ' (`tariffs sql "SELECT * FROM meter_points"` lists the meters; ' +
    '`tariffs ingest --account A` or `tariffs consumption import` stores readings)',
  storeReadings: ' (`tariffs ingest --account A` or `tariffs consumption import` stores readings)',
  seeHelp: ' (see --help)',
};

/** The flag of a request field. */
export function flagFor(field: RequestField): string {
  return FLAGS[field];
}

export const CLI_WORDS: Words = { field: flagFor, advice: (what) => ADVICE[what] };

/** The error's message as the CLI says it: flags for fields, with advice. */
export function cliMessage(error: unknown): string {
  if (isWorded(error)) return error.wording(CLI_WORDS);
  return error instanceof Error ? error.message : String(error);
}

/** The error as the CLI says it (the same kind, its message in CLI words); others unchanged. */
export function inCliTerms(error: unknown): unknown {
  if (!isWorded(error)) return error;
  const message = cliMessage(error);
  return error instanceof UsageError ? new UsageError(message, { cause: error })
    : error instanceof NoDataError ? new NoDataError(message, { cause: error })
    : new Error(message, { cause: error });
}

/** Runs `run`, its errors (thrown, or its promise's) in CLI terms. */
export function inCliWords<T>(run: () => T): T {
  try {
    const out = run();
    if (out instanceof Promise) return out.catch((error: unknown) => { throw inCliTerms(error); }) as T;
    return out;
  } catch (error) {
    throw inCliTerms(error);
  }
}

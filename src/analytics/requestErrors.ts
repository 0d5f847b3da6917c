// The errors a question raises about its request, in the request's own terms: a field is named as
// the asker knows it (its field name here; the CLI passes words that name its flags), and advice on
// getting what is missing is the asker's to give. Analytics never names a flag.
import { NoDataError, UsageError, type TariffsErrorOptions } from '../errors.js';

/** A field of a question's request (Range's from and to, a count, a price limit, …). */
export type RequestField =
  | 'from' | 'to' | 'count' | 'maxPrice' | 'minPrice' | 'weights' | 'weightsFrom' | 'band'
  | 'now' | 'minRemaining' | 'tariffs' | 'meter' | 'importMeter' | 'exportMeter' | 'dispatches' | 'horizon' | 'asOf';

/** What would supply missing data (stored prices of a tariff, stored readings of one meter or any),
 *  or where more is said (the asker's help). */
export type Advice = 'storeTariff' | 'storeMeterReadings' | 'storeReadings' | 'seeHelp';

/** How a message names the request's fields and gives advice. */
export interface Words {
  field(name: RequestField): string;
  /** Text to append after the message ('' for none). */
  advice(what: Advice): string;
}

/** A message put in someone's words. */
export type Wording = (words: Words) => string;

/** The domain's own words: fields by their names, no advice. */
export const REQUEST_WORDS: Words = { field: (name) => name, advice: () => '' };

/** An error whose message can be said in other words (see Words). */
export interface Worded {
  readonly wording: Wording;
}

export function isWorded(error: unknown): error is Error & Worded {
  return error instanceof Error && typeof (error as Partial<Worded>).wording === 'function';
}

/** A request field's value is not one the question can answer: a usage error (exit 2). */
export class InvalidRequest extends UsageError implements Worded {
  readonly field: RequestField;
  readonly wording: Wording;
  constructor(field: RequestField, wording: Wording, options: TariffsErrorOptions = {}) {
    super(wording(REQUEST_WORDS), options);
    this.field = field;
    this.wording = wording;
  }
}

/** The data the question needs is not stored (exit 1), said with advice where the asker has some. */
export class MissingData extends NoDataError implements Worded {
  readonly wording: Wording;
  constructor(wording: Wording, options: TariffsErrorOptions = {}) {
    super(wording(REQUEST_WORDS), options);
    this.wording = wording;
  }
}

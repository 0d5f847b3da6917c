// A value handed to a time function by code (not typed by a user) that the function cannot use:
// a malformed local date, an invalid Date, an instant off the half-hour grid. Exit status 1, not 2.
import { ERROR_CODES, TariffsError, type TariffsErrorOptions } from '../errors.js';

export class InvalidTimeError extends TariffsError {
  override readonly name = 'InvalidTimeError';
  /** The offending value as received (a string, or the Date's ISO text / 'Invalid Date'). */
  readonly value: string;
  constructor(message: string, value: string, options: TariffsErrorOptions = {}) {
    super(ERROR_CODES.TIME_INVALID, message, options);
    this.value = value;
  }
}

// The warehouse's schema cannot be used as it is: a file an older tariffs wrote (migrate it), or a
// migration or definition that does not apply.
import { ERROR_CODES, TariffsError } from '../errors.js';

export class SchemaError extends TariffsError {
  override readonly name = 'SchemaError';
  constructor(message: string) {
    super(ERROR_CODES.SCHEMA, message);
  }
}

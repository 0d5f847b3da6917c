// Errors of the events module that stop a run (as opposed to a bad event line, which is data:
// see EventError.ts). Both name the file and line they are about.
import { ERROR_CODES, TariffsError, type TariffsErrorOptions } from '../errors.js';

/** The catalog data file cannot be read or does not parse: a defect of the repository. */
export class EventCatalogError extends TariffsError {
  override readonly name = 'EventCatalogError';
  readonly file: string;
  readonly line: number | undefined;
  constructor(file: string, line: number | undefined, message: string, options: TariffsErrorOptions = {}) {
    super(ERROR_CODES.EVENT_CATALOG, `${file}${line === undefined ? '' : `:${line}`}: ${message}`, options);
    this.file = file;
    this.line = line;
  }
}

/** Reading an events file (or stdin) failed part-way; `line` is the last line read completely. */
export class EventInputError extends TariffsError {
  override readonly name = 'EventInputError';
  readonly source: string;
  readonly line: number;
  constructor(source: string, line: number, options: TariffsErrorOptions = {}) {
    const reason = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super(ERROR_CODES.EVENT_INPUT, `${source}: cannot read events after line ${line}: ${reason}`, options);
    this.source = source;
    this.line = line;
  }
}

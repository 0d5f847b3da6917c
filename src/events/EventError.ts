// What is wrong with one event line, in the shape of the platform's error object (`detail`, `code`,
// `attr`), plus `scope`: payloads have fields named `payload`, `id` and `occurred_at` too, so an
// attr alone would not say whether the envelope or the payload is at fault.
import type { z } from 'zod';

/**
 * Stable codes (never parse `detail`):
 * - `invalid_json`            the line is not JSON (scope `line`, attr null)
 * - `invalid_utf8`            the line's bytes are not UTF-8 (scope `line`, attr null)
 * - `not_an_object`           the line is JSON but not an object (scope `line`, attr null)
 * - `required`                a required field is absent (envelope or payload)
 * - `invalid_type`            wrong JSON type, including null: no field of the catalogs is nullable
 * - `not_an_integer`          a number with a fraction where the catalog says `i`
 * - `integer_out_of_range`    an `i` beyond ±(2^53−1): JSON.parse cannot keep it exact
 * - `invalid_datetime`        envelope `occurred_at` is not ISO 8601 with a zone (`Z` or `+01:00`)
 * - `unknown_event_type`      `event_type` is in neither catalog (attr `event_type`)
 * - `unknown_payload_version` the type is known but not at this `payload_version`
 * - `invalid`                 any other failed check (not expected with the current catalog)
 */
export const EVENT_ERROR_CODES = [
  'invalid_json',
  'invalid_utf8',
  'not_an_object',
  'required',
  'invalid_type',
  'not_an_integer',
  'integer_out_of_range',
  'invalid_datetime',
  'unknown_event_type',
  'unknown_payload_version',
  'invalid',
] as const;

export type EventErrorCode = (typeof EVENT_ERROR_CODES)[number];

/** `line`: the line as a whole; `envelope`: a top-level field; `payload`: inside `payload`. */
export type EventErrorScope = 'line' | 'envelope' | 'payload';

export interface EventError {
  detail: string;
  code: EventErrorCode;
  /** Dot path (zero-based indexes): `event_type`, `created_records.1.gas_industry_code`; null for the line. */
  attr: string | null;
  scope: EventErrorScope;
}

/** What a value is, in the words of messages: `null`, `array`, `string`, … */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * zod issues → event errors. Parse with `{ reportInput: true }` so issues carry the offending value;
 * `expectedAt` names the expected type of a path in catalog words (zod says `number` for an `i`).
 */
export function toEventErrors(
  issues: readonly z.core.$ZodIssue[],
  scope: Exclude<EventErrorScope, 'line'>,
  expectedAt: (path: readonly PropertyKey[]) => string | undefined = () => undefined,
): EventError[] {
  return issues.map((issue) => {
    const attr = issue.path.map(String).join('.');
    const input = issue.input;
    const error = (code: EventErrorCode, detail: string): EventError => ({ detail, code, attr, scope });
    switch (issue.code) {
      case 'invalid_type': {
        const expected = expectedAt(issue.path) ?? (issue.expected === 'int' ? 'integer' : issue.expected);
        if (input === undefined) return error('required', `required field (${expected}) is missing`);
        if (issue.expected === 'int' && typeof input === 'number') {
          return error('not_an_integer', `expected integer, got ${input}`);
        }
        return error('invalid_type', `expected ${expected}, got ${describeValue(input)}`);
      }
      case 'too_big':
      case 'too_small':
        if (issue.origin === 'int') {
          return error('integer_out_of_range', `integer ${String(input)} is beyond ±${Number.MAX_SAFE_INTEGER}`);
        }
        return error('invalid', issue.message);
      case 'invalid_format':
        if (issue.format === 'datetime') {
          return error('invalid_datetime', `expected an ISO 8601 datetime with a zone, got '${String(input)}'`);
        }
        return error('invalid', issue.message);
      default:
        return error('invalid', issue.message);
    }
  });
}

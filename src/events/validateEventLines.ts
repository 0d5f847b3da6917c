// Validates a JSON Lines stream of events (a file or stdin), one line at a time, for the loader
// (src/events/loadEvents.ts) to append in batches. Memory stays bounded for any file size: a line
// is read only when the consumer asks for the next result.
import { isUtf8 } from 'node:buffer';
import type { Readable } from 'node:stream';
import type { EventCatalog } from './EventCatalog.js';
import type { EventError } from './EventError.js';
import { EventInputError } from './errors.js';
import { loadEventCatalog } from './loadEventCatalog.js';
import { readLines, type RawLine } from './readLines.js';
import { validateEventText, type ValidEvent } from './validateEvent.js';

export type ValidatedLine =
  | { line: number; ok: true; event: ValidEvent; raw: string }
  | { line: number; ok: false; errors: EventError[]; raw: string };

export interface ValidateEventLinesOptions {
  catalog?: EventCatalog;
}

/**
 * Yields one result per non-blank line, in order. `line` is 1-based and counts every line (blank
 * ones too), so it matches an editor. Blank (whitespace-only) lines are skipped: JSON Lines
 * writers often end with an empty line. `raw` is the line as read, without its line break (and,
 * on line 1, without a UTF-8 byte-order mark). A failing read throws EventInputError naming
 * `source` and the last complete line; bad lines never throw.
 */
export async function* validateEventLines(
  input: Readable | AsyncIterable<Uint8Array | string>,
  source: string,
  options: ValidateEventLinesOptions = {},
): AsyncGenerator<ValidatedLine, void, undefined> {
  const catalog = options.catalog ?? loadEventCatalog();
  const lines = readLines(input);
  let last = 0;
  try {
    for (;;) {
      let next: IteratorResult<RawLine, void>;
      try {
        next = await lines.next();
      } catch (cause) {
        throw new EventInputError(source, last, { cause });
      }
      if (next.done) return;
      const { number, bytes } = next.value;
      last = number;
      const bom = number === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
      const content = bom ? bytes.subarray(3) : bytes;
      const raw = content.toString('utf8');
      if (raw.trim() === '') continue;
      if (!isUtf8(content)) {
        const detail = 'the line is not valid UTF-8';
        yield { line: number, ok: false, errors: [{ detail, code: 'invalid_utf8', attr: null, scope: 'line' }], raw };
        continue;
      }
      const result = validateEventText(raw, catalog);
      yield result.ok
        ? { line: number, ok: true, event: result.event, raw }
        : { line: number, ok: false, errors: result.errors, raw };
    }
  } finally {
    await lines.return();
  }
}

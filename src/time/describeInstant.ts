// Instants in messages as the user typed them: parseUserDateTime remembers the text of each
// instant it returns, and a message shows that text, with UTC in parentheses when the text is not
// already an instant in UTC (a date or a wall time means Europe/London: the UTC says which instant).
// An instant nobody typed (the end of stored data) is shown as Europe/London wall time, the same way.
import { formatLocal, formatUtc } from './format.js';

const typed = new WeakMap<Date, string>();

/** Remembers `text` as what the user typed for `instant`; returns the instant. */
export function rememberTyped(instant: Date, text: string): Date {
  typed.set(instant, text);
  return instant;
}

/** What the user typed for `instant`, else its Europe/London wall time (`2024-05-14` at midnight,
 *  `2024-05-14 16:30` otherwise). */
export function typedOrWall(instant: Date): string {
  const text = typed.get(instant);
  if (text !== undefined) return text;
  const local = formatLocal(instant); // 2024-05-14T16:30:00+01:00
  const [date, time = ''] = local.split('T');
  const hhmm = time.slice(0, 5);
  return hhmm === '00:00' ? date! : `${date} ${hhmm}`;
}

/** Is this text an instant given in UTC (`Z` or `+00:00`), so that the UTC would only repeat it? */
function saysUtc(text: string): boolean {
  return /(?:Z|[+-]00(?::?00)?)$/i.test(text.trim());
}

/** `2024-05-14 (2024-05-13T23:00:00Z)`, or just `2024-05-13T23:00:00Z` when typed so. */
export function describeInstant(instant: Date): string {
  const text = typedOrWall(instant);
  return saysUtc(text) ? text : `${text} (${formatUtc(instant)})`;
}

/** `[2024-05-14, 2024-05-21)`, then `(UTC [2024-05-13T23:00:00Z, 2024-05-20T23:00:00Z))` when one end is
 *  not typed in UTC; an open end is `the start` or `the end`. */
export function describeWindow(from: Date | undefined, to: Date | undefined): string {
  const ends = [from, to];
  const words = ends.map((d, i) => (d === undefined ? (i === 0 ? 'the start' : 'the end') : typedOrWall(d)));
  const inUtc = ends.every((d, i) => d === undefined || saysUtc(words[i]!));
  const window = `[${words[0]}, ${words[1]})`;
  if (inUtc) return window;
  const utc = ends.map((d, i) => (d === undefined ? words[i] : formatUtc(d)));
  return `${window} (UTC [${utc[0]}, ${utc[1]}))`;
}

/** The words of a `--from`/`--to` pair that is out of order: as typed, each with its UTC instant
 *  when the two were typed in different forms (then the text alone may not show why). */
export function describeOrder(from: Date, to: Date): string {
  const a = typedOrWall(from);
  const b = typedOrWall(to);
  const shape = (t: string) => t.replace(/\d/g, '9');
  return shape(a) === shape(b) ? `got --from ${a} and --to ${b}` : `got --from ${describeInstant(from)} and --to ${describeInstant(to)}`;
}

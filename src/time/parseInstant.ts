// Instants as consumption records and CSV files write them, with their offset (read by the
// consumption schemas in api/ and the consumption CSV reader in ingest/):
// 2024-03-31T02:00:00+01:00, 2024-03-31 02:00:00+0100, 2024-03-31T01:00:00Z (an offset is required:
// without one a fall-back hour is ambiguous).
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})$/;

/** Epoch milliseconds, or undefined when the text is not such an instant. */
export function parseInstant(text: string): number | undefined {
  const m = INSTANT.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, zone] = m;
  let offsetMin = 0;
  if (zone !== 'Z') {
    const digits = zone!.replace(':', '');
    offsetMin = (digits[0] === '-' ? -1 : 1) * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5)));
  }
  const local = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0));
  const check = new Date(local);
  if (check.getUTCDate() !== Number(d) || check.getUTCHours() !== Number(h) || check.getUTCMonth() !== Number(mo) - 1) return undefined;
  return local - offsetMin * 60_000;
}

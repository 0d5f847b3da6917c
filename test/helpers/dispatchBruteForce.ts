// An independent brute force of Intelligent Octopus Go's effective rates (issue 28), written from
// the rules, not from sql/public/effective_rates_with.sql: every half-hour of the asked Europe/London
// days walked in TypeScript, the wall clock from Intl, each dispatch span tested against each
// half-hour, the daily cap counted by hand.
export const HH_MS = 1_800_000;
const CAP_HALF_HOURS = 12;
const PROVISIONAL_MS = 48 * 3600_000;

export interface Span { start: number; end: number }
export type Mode = 'default' | 'completed' | 'planned' | 'none';

export interface BruteRate {
  slot_start: string;
  value_inc_vat: number;
  source: 'night_band' | 'completed_dispatch' | 'planned_dispatch' | 'standard';
  provisional: boolean;
  capped: boolean;
}

const wall = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
});

/** Europe/London date (YYYY-MM-DD) and minutes after local midnight of an instant. */
export function londonWall(ms: number): { date: string; minutes: number } {
  const parts = Object.fromEntries(wall.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, minutes: Number(parts.hour) * 60 + Number(parts.minute) };
}

/** Every half-hour start of a Europe/London date, found by walking UTC half-hours around it. */
export function halfHoursOf(date: string): number[] {
  const noon = Date.parse(`${date}T12:00:00Z`);
  const out: number[] = [];
  for (let ms = noon - 16 * 3600_000; ms < noon + 16 * 3600_000; ms += HH_MS) if (londonWall(ms).date === date) out.push(ms);
  return out;
}

export interface Household {
  /** p/kWh inc VAT of the tariff's day rate and night rate at an instant */
  dayRate: (ms: number) => number;
  nightRate: (ms: number) => number;
  /** night band, minutes after local midnight (start inclusive, end exclusive, may cross midnight) */
  bandStart: number;
  bandEnd: number;
}

/** The effective rate of every half-hour of `dates`, given the dispatches seen. */
export function bruteEffectiveRates(
  household: Household, dates: readonly string[], completed: readonly Span[], planned: readonly Span[],
  knownUntil: number | undefined, mode: Mode,
): BruteRate[] {
  const out: BruteRate[] = [];
  const touches = (spans: readonly Span[], ms: number) => spans.some((s) => s.start < ms + HH_MS && s.end > ms);
  for (const date of dates) {
    let dispatchedSoFar = 0;
    for (const ms of halfHoursOf(date)) {
      const { minutes } = londonWall(ms);
      const inBand = household.bandStart < household.bandEnd
        ? minutes >= household.bandStart && minutes < household.bandEnd
        : minutes >= household.bandStart || minutes < household.bandEnd;
      const byCompleted = (mode === 'default' || mode === 'completed') && touches(completed, ms);
      const planFuture = mode === 'planned' || knownUntil === undefined || ms + HH_MS > knownUntil;
      const byPlanned = (mode === 'default' || mode === 'planned') && planFuture && touches(planned, ms);
      const dispatched = byCompleted || byPlanned;
      if (dispatched) dispatchedSoFar++;
      const credited = dispatched && dispatchedSoFar <= CAP_HALF_HOURS;
      const source = inBand ? 'night_band' : credited && byCompleted ? 'completed_dispatch' : credited ? 'planned_dispatch' : 'standard';
      const own = inBand ? household.nightRate(ms) : household.dayRate(ms);
      const offPeak = Math.min(household.nightRate(ms), household.dayRate(ms));
      out.push({
        slot_start: new Date(ms).toISOString().replace('.000Z', 'Z'),
        value_inc_vat: source === 'completed_dispatch' || source === 'planned_dispatch' ? offPeak : own,
        source,
        provisional: source === 'planned_dispatch'
          || ((mode === 'default' || mode === 'completed') && (knownUntil === undefined || ms + HH_MS > knownUntil - PROVISIONAL_MS)),
        capped: dispatched && !inBand && dispatchedSoFar > CAP_HALF_HOURS,
      });
    }
  }
  return out;
}

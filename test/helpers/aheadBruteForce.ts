// A plain TypeScript loop over readings and prices for `compare --ahead` (issue 55), written from
// the rule in docs/decisions/expected-use.md and not from the SQL: Europe/London dates and wall
// times come from Intl, days are walked half-hour by half-hour.
export const HH = 1_800_000;

const parts = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
});
const fieldCache = new Map<number, { date: string; time: string }>();
function fields(ms: number): { date: string; time: string } {
  let f = fieldCache.get(ms);
  if (!f) {
    const p = Object.fromEntries(parts.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
    f = { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
    fieldCache.set(ms, f);
  }
  return f;
}
export const londonDate = (ms: number) => fields(ms).date;
export const londonTime = (ms: number) => fields(ms).time;

export function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}
export function addMonths(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + n);
  return d.toISOString().slice(0, 10);
}
export const isWeekend = (date: string) => [0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay());
export const dayType = (date: string) => (isWeekend(date) ? 'weekend' : 'weekday');

const dayCache = new Map<string, number[]>();
/** The UTC starts of a London local day's half-hours (46, 48 or 50). */
export function halfHoursOf(date: string): number[] {
  let found = dayCache.get(date);
  if (found) return found;
  found = [];
  for (let ms = Date.parse(`${date}T00:00:00Z`) - 2 * 3_600_000; ms < Date.parse(`${date}T00:00:00Z`) + 26 * 3_600_000; ms += HH) {
    if (londonDate(ms) === date) found.push(ms);
  }
  dayCache.set(date, found);
  return found;
}
/** The instant of a London wall-clock time on a date (the first, where it occurs twice). */
export function londonInstant(date: string, time: string): number {
  const ms = halfHoursOf(date).find((m) => londonTime(m) === time);
  if (ms === undefined) throw new Error(`${date} ${time} does not exist in London`);
  return ms;
}
/** The first local day starting at or after asOf. */
export function askedDay(asOfMs: number): string {
  const today = londonDate(asOfMs);
  return halfHoursOf(today)[0]! >= asOfMs ? today : addDays(today, 1);
}

export interface Profile { kwh: Map<string, number>; readings: Map<string, number>; days: { weekday: number; weekend: number } }

/** The expected-use rule, from readings (UTC start ms → kWh). Keys `weekday|HH:MM`. */
export function expectedUse(readings: Map<number, number>, asOfMs: number): Profile {
  const asked = askedDay(asOfMs);
  const sums = new Map<string, number>();
  const counts = new Map<string, number>();
  const days = { weekday: 0, weekend: 0 };
  for (let k = 1; k <= 28; k++) {
    const date = addDays(asked, -k);
    const slots = halfHoursOf(date);
    if (!slots.every((ms) => readings.has(ms) && ms + HH <= asOfMs)) continue;
    const type = dayType(date);
    days[type]++;
    for (const ms of slots) {
      const key = `${type}|${londonTime(ms)}`;
      sums.set(key, (sums.get(key) ?? 0) + readings.get(ms)!);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const kwh = new Map<string, number>();
  for (const [key, sum] of sums) kwh.set(key, sum / counts.get(key)!);
  return { kwh, readings: counts, days };
}

export interface Rate { from: number; to: number | null; inc: number }
export interface BruteTariff {
  code: string;
  /** The product is variable (an open-ended rate is then an estimate). */
  variable: boolean;
  rates: Rate[];
  standing: Rate[];
}
export interface BruteRow {
  tariff_code: string; half_hours: number; expected_kwh: number; energy_inc_vat: number;
  standing_charge_inc_vat: number | null; total_inc_vat: number | null; published_share: number | null; rank: number | null;
  missing_half_hours: number;
}

const halfHourly = (r: Rate) => r.to !== null && r.to - r.from === HH;
/** Published by asOf: a half-hourly price from 16:00 London the day before its day; others once stored. */
function visible(r: Rate, asOfMs: number): boolean {
  if (!halfHourly(r)) return true;
  return londonInstant(addDays(londonDate(r.from), -1), '16:00') <= asOfMs;
}
/** A tariff's rates: the half-hourly ones by start, the others in a list. */
interface RateIndex { byStart: Map<number, Rate>; long: Rate[] }
function indexRates(rates: Rate[]): RateIndex {
  const index: RateIndex = { byStart: new Map(), long: [] };
  for (const r of rates) {
    if (halfHourly(r)) index.byStart.set(r.from, r);
    else index.long.push(r);
  }
  return index;
}
function covering(index: RateIndex, ms: number): Rate | undefined {
  const long = latest(index.long, ms, true);
  const hh = index.byStart.get(ms);
  return hh && (!long || hh.from >= long.from) ? hh : long;
}
function latest(rates: Rate[], ms: number, covering: boolean): Rate | undefined {
  let best: Rate | undefined;
  for (const r of rates) {
    if (r.from <= ms && (!covering || r.to === null || ms < r.to) && (!best || r.from > best.from)) best = r;
  }
  return best;
}

export function horizonDays(asOfMs: number, horizon: 'tomorrow' | '7d' | '30d' | '12m'): string[] {
  const first = askedDay(asOfMs);
  const end = horizon === 'tomorrow' ? addDays(first, 1) : horizon === '7d' ? addDays(first, 7)
    : horizon === '30d' ? addDays(first, 30) : addMonths(first, 12);
  const out: string[] = [];
  for (let d = first; d < end; d = addDays(d, 1)) out.push(d);
  return out;
}

/** One row per tariff: the horizon's expected cost, as docs/decisions/expected-use.md says. */
export function aheadCosts(profile: Profile, tariffs: BruteTariff[], asOfMs: number, days: string[], exporting: boolean,
  scale: (date: string) => number = () => 1): BruteRow[] {
  const rows: BruteRow[] = tariffs.map((t) => {
    const rates = indexRates(t.rates.filter((r) => r.from < asOfMs + 400 * 86_400_000 && visible(r, asOfMs)));
    // the estimate: the mean price per wall-clock time over the last 28 local days with a price
    const priced = new Map<string, { inc: number; date: string; time: string }>();
    let lastPriced = '';
    for (let d = addDays(days[0]!, -28); d <= days[days.length - 1]!; d = addDays(d, 1)) {
      for (const ms of halfHoursOf(d)) {
        const r = covering(rates, ms);
        if (!r) continue;
        priced.set(`${ms}`, { inc: r.inc, date: d, time: londonTime(ms) });
        if (d > lastPriced) lastPriced = d;
      }
    }
    const typicalSum = new Map<string, number>();
    const typicalN = new Map<string, number>();
    for (const p of priced.values()) {
      if (p.date <= addDays(lastPriced, -28)) continue;
      typicalSum.set(p.time, (typicalSum.get(p.time) ?? 0) + p.inc);
      typicalN.set(p.time, (typicalN.get(p.time) ?? 0) + 1);
    }
    let halfHours = 0; let kwhSum = 0; let energy = 0; let pubAbs = 0; let allAbs = 0; let missing = 0;
    let standing: number | null = null;
    for (const d of days) {
      for (const ms of halfHoursOf(d)) {
        halfHours++;
        const time = londonTime(ms);
        const base = profile.kwh.get(`${dayType(d)}|${time}`);
        const kwh = base === undefined ? undefined : base * scale(d);
        const r = covering(rates, ms);
        const price = r ? r.inc : typicalN.has(time) ? typicalSum.get(time)! / typicalN.get(time)! : undefined;
        if (kwh !== undefined) kwhSum += kwh;
        if (kwh === undefined || price === undefined) { missing++; continue; }
        energy += kwh * price;
        allAbs += Math.abs(kwh * price);
        if (r && !(r.to === null && t.variable)) pubAbs += Math.abs(kwh * price);
      }
      const start = halfHoursOf(d)[0]!;
      const s = latest(t.standing, start, false);
      if (s) {
        standing = (standing ?? 0) + s.inc;
        allAbs += Math.abs(s.inc);
        if ((s.to === null || s.to > start) && !(s.to === null && t.variable)) pubAbs += Math.abs(s.inc);
      }
    }
    const total = missing === 0 ? energy + (standing ?? 0) : null;
    return {
      tariff_code: t.code, half_hours: halfHours, expected_kwh: kwhSum, energy_inc_vat: energy, standing_charge_inc_vat: standing,
      total_inc_vat: total, published_share: total === null || allAbs === 0 ? null : pubAbs / allAbs, rank: null, missing_half_hours: missing,
    };
  });
  const ranked = rows.filter((r) => r.total_inc_vat !== null)
    .sort((a, b) => (exporting ? b.total_inc_vat! - a.total_inc_vat! : a.total_inc_vat! - b.total_inc_vat!));
  for (const r of rows) {
    if (r.total_inc_vat === null) continue;
    r.rank = 1 + ranked.filter((o) => (exporting ? o.total_inc_vat! > r.total_inc_vat! : o.total_inc_vat! < r.total_inc_vat!)).length;
  }
  return rows;
}

/** seasonal_scale's rule: with every calendar month of the 12 before the day asked about holding 7
 *  complete days read by asOf, month → (its mean complete-day kWh / the last 28 days'); else null. */
export function seasonalScale(readings: Map<number, number>, asOfMs: number): Map<number, number> | null {
  const asked = askedDay(asOfMs);
  const yearAgo = addMonths(asked, -12);
  const byMonth = new Map<number, number[]>();
  const recent: number[] = [];
  for (let d = yearAgo; d < asked; d = addDays(d, 1)) {
    const slots = halfHoursOf(d);
    if (!slots.every((ms) => readings.has(ms) && ms + HH <= asOfMs)) continue;
    const kwh = slots.reduce((n, ms) => n + readings.get(ms)!, 0);
    const month = Number(d.slice(5, 7));
    byMonth.set(month, [...(byMonth.get(month) ?? []), kwh]);
    if (d >= addDays(asked, -28)) recent.push(kwh);
  }
  if ([...byMonth.values()].filter((v) => v.length >= 7).length !== 12 || recent.length === 0) return null;
  const mean = (v: number[]) => v.reduce((n, x) => n + x, 0) / v.length;
  return new Map([...byMonth].map(([m, v]) => [m, mean(v) / mean(recent)]));
}

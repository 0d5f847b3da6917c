// Brute-force answers to the analytics questions, in plain loops over price points, written apart
// from the SQL (own Europe/London rule, own contiguity checks) so the two can be compared.
import type { PricePoint } from './realAgilePrices.js';

export const HALF_HOUR = 1_800_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

export interface Slot extends PricePoint {
  /** Europe/London local date. */
  date: string;
  /** Minutes after local midnight shown by a wall clock at the start. */
  wallMinute: number;
}

/** 01:00 UTC on the last Sunday of a month (0-based), when UK clocks change. */
function lastSundayOneAm(year: number, month: number): number {
  const lastDay = Date.UTC(year, month + 1, 0);
  return lastDay - new Date(lastDay).getUTCDay() * DAY + HOUR;
}

/** Europe/London offset by the UK rule since 1996: BST from the last Sunday of March to that of October. */
export function londonOffset(ms: number): number {
  const year = new Date(ms).getUTCFullYear();
  return ms >= lastSundayOneAm(year, 2) && ms < lastSundayOneAm(year, 9) ? HOUR : 0;
}

export function localDate(ms: number): string {
  return new Date(ms + londonOffset(ms)).toISOString().slice(0, 10);
}

/** `2024-03-31T02:00:00+01:00` */
export function localIso(ms: number): string {
  const offset = londonOffset(ms);
  return `${new Date(ms + offset).toISOString().slice(0, 19)}${offset ? '+01:00' : '+00:00'}`;
}

export function utcIso(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** Half-hours in a local day: 46, 48 or 50. */
export function halfHoursInDay(date: string): number {
  const midnight = (d: string) => {
    const guess = Date.parse(`${d}T00:00:00Z`);
    return guess - londonOffset(guess - HOUR);
  };
  const next = new Date(Date.parse(`${date}T00:00:00Z`) + DAY).toISOString().slice(0, 10);
  return (midnight(next) - midnight(date)) / HALF_HOUR;
}

export function toSlots(points: PricePoint[]): Slot[] {
  return [...points].sort((a, b) => a.ms - b.ms).map((p) => {
    const wall = p.ms + londonOffset(p.ms);
    return { ...p, date: new Date(wall).toISOString().slice(0, 10), wallMinute: Math.floor((wall % DAY) / 60_000) };
  });
}

export function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** The occurrence (local date it starts on) of a daily band a slot lies in, or undefined. */
export function bandOccurrence(slot: Slot, startMinutes: number, endMinutes: number): string | undefined {
  const m = slot.wallMinute;
  if (startMinutes < endMinutes) return m >= startMinutes && m < endMinutes ? slot.date : undefined;
  if (m >= startMinutes) return slot.date;
  if (m < endMinutes) return new Date(Date.parse(`${slot.date}T00:00:00Z`) - DAY).toISOString().slice(0, 10);
  return undefined;
}

export interface BruteWindow {
  startMs: number;
  mean: number;
  meanInc: number[];
}

/**
 * The cheapest n contiguous slots among `slots` (sorted by time): every pair of neighbours 30 min
 * apart, no slot above maxPrice; means within 1e-9 are tied and go to the earliest (or latest).
 */
export function bestWindow(slots: Slot[], n: number, latest: boolean, maxPrice?: number): BruteWindow | undefined {
  let best: BruteWindow | undefined;
  for (let i = 0; i + n <= slots.length; i++) {
    let ok = true;
    let sum = 0;
    for (let k = 0; k < n; k++) {
      const slot = slots[i + k]!;
      if (k > 0 && slot.ms - slots[i + k - 1]!.ms !== HALF_HOUR) ok = false;
      if (maxPrice !== undefined && slot.inc > maxPrice) ok = false;
      sum += slot.inc;
    }
    if (!ok) continue;
    const mean = sum / n;
    if (best === undefined || mean < best.mean - 1e-9 || (latest && Math.abs(mean - best.mean) <= 1e-9)) {
      best = { startMs: slots[i]!.ms, mean, meanInc: slots.slice(i, i + n).map((s) => s.inc) };
    }
  }
  return best;
}

/** The n cheapest slots (ties: earliest, or latest), in time order. */
export function cheapestN(slots: Slot[], n: number, latest: boolean): Slot[] {
  const ranked = [...slots].sort((a, b) => a.inc - b.inc || (latest ? b.ms - a.ms : a.ms - b.ms));
  return ranked.slice(0, n).sort((a, b) => a.ms - b.ms);
}

/** Like DuckDB's quantile_cont: linear interpolation between the two nearest ranks. */
export function quantile(sorted: number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (pos - lo) * (sorted[hi]! - sorted[lo]!);
}

export interface BruteDay {
  date: string;
  slots: number;
  expected: number;
  min: number;
  max: number;
  mean: number;
  median: number;
  p10: number;
  p90: number;
  negative: number;
  peakMean: number | null;
}

export function dayStats(date: string, slots: Slot[]): BruteDay {
  const values = slots.map((s) => s.inc);
  const sorted = [...values].sort((a, b) => a - b);
  const peak = slots.filter((s) => s.wallMinute >= 16 * 60 && s.wallMinute < 19 * 60).map((s) => s.inc);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    date, slots: slots.length, expected: halfHoursInDay(date),
    min: sorted[0]!, max: sorted.at(-1)!, mean: mean(values),
    median: quantile(sorted, 0.5), p10: quantile(sorted, 0.1), p90: quantile(sorted, 0.9),
    negative: values.filter((v) => v < 0).length,
    peakMean: peak.length ? mean(peak) : null,
  };
}

export interface BruteRun {
  startMs: number;
  endMs: number;
  slots: number;
  min: number;
  mean: number;
}

/** Maximal runs of negative slots, neighbours 30 min apart. */
export function negativeRunsOf(slots: Slot[]): BruteRun[] {
  const runs: BruteRun[] = [];
  let run: Slot[] = [];
  const flush = () => {
    if (run.length === 0) return;
    const values = run.map((s) => s.inc);
    runs.push({
      startMs: run[0]!.ms, endMs: run.at(-1)!.ms + HALF_HOUR, slots: run.length,
      min: Math.min(...values), mean: values.reduce((a, b) => a + b, 0) / values.length,
    });
    run = [];
  };
  for (const slot of slots) {
    if (slot.inc >= 0) {
      flush();
      continue;
    }
    if (run.length > 0 && slot.ms - run.at(-1)!.ms !== HALF_HOUR) flush();
    run.push(slot);
  }
  flush();
  return runs;
}

export type LengthMode = 'exact' | 'at_least' | 'at_most';

export interface WindowOptions {
  n: number;
  latest?: boolean;
  highest?: boolean;
  min?: number;
  max?: number;
  weights?: number[];
  mode?: LengthMode;
}

export interface BruteGeneralWindow {
  startMs: number;
  slots: number;
  mean: number;
  /** Σ price × weight ÷ Σ weight of the ranked n-window. */
  score: number;
}

/** Maximal runs of slots 30 min apart (slots sorted by time). */
export function contiguousRuns(slots: Slot[]): Slot[][] {
  const runs: Slot[][] = [];
  for (const slot of slots) {
    const run = runs.at(-1);
    if (run && slot.ms - run.at(-1)!.ms === HALF_HOUR) run.push(slot);
    else runs.push([slot]);
  }
  return runs;
}

/**
 * The best window of one group by plain enumeration: drop slots outside [min, max], cut the rest
 * into contiguous runs, try every start of every run. Score Σ price × weight (weights cut or
 * padded with 1s to the length); lower wins (highest: higher); within 1e-9 the earliest (latest).
 * at_most: length = min(n, longest run); at_least: the whole run holding the best n-window.
 */
export function bestGeneralWindow(slots: Slot[], o: WindowOptions): BruteGeneralWindow | undefined {
  const eligible = slots.filter((s) => (o.min === undefined || s.inc >= o.min) && (o.max === undefined || s.inc <= o.max));
  const runs = contiguousRuns(eligible);
  const longest = Math.max(0, ...runs.map((r) => r.length));
  const length = o.mode === 'at_most' ? Math.min(o.n, longest) : o.n;
  if (length < 1) return undefined;
  const weight = (k: number) => o.weights?.[k] ?? 1;
  let best: { run: Slot[]; i: number; score: number } | undefined;
  for (const run of runs) {
    for (let i = 0; i + length <= run.length; i++) {
      let score = 0;
      for (let k = 0; k < length; k++) score += run[i + k]!.inc * weight(k);
      const better = best === undefined
        || (o.highest ? score > best.score + 1e-9 : score < best.score - 1e-9)
        || (o.latest === true && Math.abs(score - best.score) <= 1e-9);
      if (better) best = { run, i, score };
    }
  }
  if (!best) return undefined;
  let weightSum = 0;
  for (let k = 0; k < length; k++) weightSum += weight(k);
  const chosen = o.mode === 'at_least' ? best.run : best.run.slice(best.i, best.i + length);
  return {
    startMs: chosen[0]!.ms, slots: chosen.length,
    mean: chosen.reduce((a, s) => a + s.inc, 0) / chosen.length, score: best.score / weightSum,
  };
}

/** The slots a slots question picks: eligible ones by price (highest: dearest first), ties by time. */
export function bruteSlots(slots: Slot[], o: Omit<WindowOptions, 'weights'>): Slot[] {
  const eligible = slots.filter((s) => (o.min === undefined || s.inc >= o.min) && (o.max === undefined || s.inc <= o.max));
  const ranked = [...eligible].sort((a, b) => (o.highest ? b.inc - a.inc : a.inc - b.inc) || (o.latest ? b.ms - a.ms : a.ms - b.ms));
  const mode = o.mode ?? 'exact';
  const picked = mode === 'at_least' ? (ranked.length >= o.n ? ranked : [])
    : mode === 'at_most' ? ranked.slice(0, o.n)
      : ranked.length >= o.n ? ranked.slice(0, o.n) : [];
  return picked.sort((a, b) => a.ms - b.ms);
}

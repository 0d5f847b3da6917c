// The sandbox's synthetic household (documented in data/sandbox/README.md): deterministic
// half-hourly import, export (solar) and gas readings, a pure function of the half-hour, so the
// sandbox serves the same numbers every time and tests can regenerate them.
import { HALF_HOUR_MS, localDateOf, localMinutesOfDay } from '../time/index.js';

export type HouseholdChannel = 'import' | 'export' | 'gas';

/** A hash of (channel, half-hour) to [0, 1): deterministic noise without state. */
function noise(seed: number, slot: number): number {
  let t = (slot * 0x9e3779b1 + seed * 0x85ebca6b) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** Europe/London wall-clock hour (fractional) and month of the instant `ms`. */
function wall(ms: number): { hour: number; month: number } {
  const instant = new Date(ms);
  return { hour: localMinutesOfDay(instant) / 60, month: Number(localDateOf(instant).slice(5, 7)) };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * kWh (import, export) or m³ (gas) in the half-hour starting at `startMs` (UTC), 3 decimals as
 * meters report them. Import: 0.12 kWh base, +0.25 07:00-09:00, +0.45 17:00-22:00 local wall time,
 * ×(1 + 0.3·cos(season)) (more in winter), ±40 % noise. Export: 4 kWp of solar, a sine from 06:00 to
 * 20:00 scaled by season, less 0.2 kWh self-use, never below zero. Gas: heating 06:00-09:00 and
 * 17:00-22:00, 0.25 m³ a half-hour in midwinter to none in midsummer, plus 0.02 m³ hot water.
 */
export function householdReading(channel: HouseholdChannel, startMs: number): number {
  const slot = Math.floor(startMs / HALF_HOUR_MS);
  const { hour, month } = wall(startMs);
  const season = Math.cos(((month - 1) / 12) * 2 * Math.PI); // 1 in January, -1 in July
  const jitter = 0.6 + 0.8 * noise(channel === 'import' ? 1 : channel === 'export' ? 2 : 3, slot);
  if (channel === 'import') {
    let kwh = 0.12;
    if (hour >= 7 && hour < 9) kwh += 0.25;
    if (hour >= 17 && hour < 22) kwh += 0.45;
    return round3(kwh * (1 + 0.3 * season) * jitter);
  }
  if (channel === 'export') {
    if (hour < 6 || hour >= 20) return 0;
    const sun = Math.sin(((hour - 6) / 14) * Math.PI);
    const kwh = 2 * sun * (0.65 - 0.35 * season) * jitter - 0.2;
    return kwh > 0 ? round3(kwh) : 0;
  }
  const heating = (hour >= 6 && hour < 9) || (hour >= 17 && hour < 22) ? 0.125 * (1 + season) : 0;
  return round3((heating + 0.02) * jitter);
}

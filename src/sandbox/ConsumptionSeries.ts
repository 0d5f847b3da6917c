// One sandbox meter's half-hourly readings, generated from the synthetic household profile over
// [from, to) on first use and kept: served oldest first or newest first, filtered by period.
import { HALF_HOUR_MS, formatLocal, londonOffsetMs } from '../time/index.js';
import { householdReading, type HouseholdChannel } from './householdProfile.js';

export interface ConsumptionRecordJson {
  consumption: number;
  interval_start: string;
  interval_end: string;
}

/** `2023-06-01T12:00:00+01:00` in summer, `2023-12-01T12:00:00Z` in winter, as the API writes them. */
function localIso(ms: number): string {
  if (londonOffsetMs(ms) === 0) return new Date(ms).toISOString().replace('.000Z', 'Z');
  return formatLocal(new Date(ms));
}

export class ConsumptionSeries {
  private starts: Float64Array | undefined;
  private records: ConsumptionRecordJson[] | undefined;

  constructor(readonly channel: HouseholdChannel, readonly fromMs: number, readonly toMs: number) {}

  get length(): number {
    return Math.max(0, Math.round((this.toMs - this.fromMs) / HALF_HOUR_MS));
  }

  private build(): void {
    if (this.records) return;
    const n = this.length;
    this.starts = new Float64Array(n);
    this.records = new Array<ConsumptionRecordJson>(n);
    for (let i = 0; i < n; i++) {
      const ms = this.fromMs + i * HALF_HOUR_MS;
      this.starts[i] = ms;
      this.records[i] = {
        consumption: householdReading(this.channel, ms),
        interval_start: localIso(ms),
        interval_end: localIso(ms + HALF_HOUR_MS),
      };
    }
  }

  /** Readings overlapping [periodFrom, periodTo): the index range into the oldest-first list. */
  select(periodFrom: number | undefined, periodTo: number | undefined): { first: number; count: number } {
    this.build();
    const first = periodFrom === undefined ? 0 : Math.max(0, Math.ceil((periodFrom - this.fromMs - HALF_HOUR_MS + 1) / HALF_HOUR_MS));
    const end = periodTo === undefined ? this.length : Math.min(this.length, Math.ceil((periodTo - this.fromMs) / HALF_HOUR_MS));
    return { first, count: Math.max(0, end - first) };
  }

  record(index: number): ConsumptionRecordJson {
    this.build();
    return this.records![index]!;
  }
}

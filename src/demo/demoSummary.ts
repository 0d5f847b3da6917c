// What `tariffs demo` prints: per half-hourly tariff the cheapest 2-hour window of its latest
// complete local day, negative-price statistics, and the clock-change days found with their
// half-hour counts. The numbers come from src/analytics (the views and macros of sql/); this
// module only picks rows and counts them (src/cli/formatDemoSummary.ts prints them).
import { cheapestWindows, negativeRuns, negativeSlots, netCosts, tariffComparison } from '../analytics/index.js';
import { summaryDays } from '../analytics/summaryDays.js';
import { HOUSEHOLD } from '../sandbox/loadSandboxData.js';
import type { Warehouse } from '../store/Warehouse.js';
import { localDayBounds } from '../time/index.js';

export type SummaryRow = Record<string, string | number | null>;

export interface DemoSummary {
  cheapest: SummaryRow[];
  negatives: SummaryRow[];
  clockChanges: SummaryRow[];
  /** The sandbox household's year: its agreements against each tariff, and import less export. */
  household?: { comparison: SummaryRow[]; net: SummaryRow[] };
}

/** The synthetic household (2023-03 → 2024-02) priced at its agreements and at each of its tariffs. */
export async function householdSummary(warehouse: Warehouse): Promise<DemoSummary['household']> {
  const range = { from: new Date(HOUSEHOLD.from), to: new Date(HOUSEHOLD.to) };
  const comparison = await tariffComparison(warehouse, {
    meter: HOUSEHOLD.importMpan, tariffs: [...HOUSEHOLD.importTariffs], payment: 'DIRECT_DEBIT', ...range,
  });
  const net = await netCosts(warehouse, { importMeter: HOUSEHOLD.importMpan, exportMeter: HOUSEHOLD.exportMpan, payment: 'DIRECT_DEBIT', ...range });
  return {
    comparison: comparison.map((r) => ({
      tariff: r.scenario === 'actual' ? `actual: ${String(r.tariff_code)}` : String(r.tariff_code),
      days: Number(r.days), kwh: Math.round(Number(r.kwh)),
      // null (nothing priced) stays null: unpriced is never 0.00
      total_gbp: numberOrNull(r.total_gbp), vs_actual_gbp: numberOrNull(r.difference_gbp), missing_half_hours: Number(r.missing_half_hours),
      // '*': the total rests on prices carried past the last published rate (said under the table)
      note: Number(r.carried_half_hours) > 0 ? '*' : '',
      standing_charge_missing_days: Number(r.standing_charge_missing_days),
      carried_half_hours: Number(r.carried_half_hours), carried_from: r.carried_from === null ? null : String(r.carried_from),
    })),
    net: [{
      months: net.length,
      import_kwh: Math.round(net.reduce((n, r) => n + Number(r.import_kwh ?? 0), 0)),
      export_kwh: Math.round(net.reduce((n, r) => n + Number(r.export_kwh ?? 0), 0)),
      import_cost_gbp: poundsOf(net.reduce((n, r) => n + Number(r.import_cost_inc_vat ?? 0), 0)),
      export_earnings_gbp: poundsOf(net.reduce((n, r) => n + Number(r.export_earnings_inc_vat ?? 0), 0)),
      net_gbp: net.some((r) => r.net_inc_vat === null) ? null : poundsOf(net.reduce((n, r) => n + Number(r.net_inc_vat), 0)),
    }],
  };
}

export async function demoSummary(warehouse: Warehouse, tariffs: string[]): Promise<DemoSummary> {
  const summary: DemoSummary = { cheapest: [], negatives: [], clockChanges: [] };
  // Each question asked once for every tariff (each in the order of its per-tariff answer), then
  // split by tariff.
  const byTariff = <T extends { tariff_code: string }>(rows: T[]) => (tariff: string) => rows.filter((r) => r.tariff_code === tariff);
  const daysOf = byTariff(await summaryDays(warehouse, tariffs));
  const slotsOf = byTariff(await negativeSlots(warehouse));
  const runsOf = byTariff(await negativeRuns(warehouse));
  for (const tariff of tariffs) {
    const days = daysOf(tariff);
    // The latest local day with all its 46/48/50 half-hours, else the latest day there is.
    const latest = days.filter((d) => d.slots === d.expected_slots).at(-1) ?? days.at(-1);
    // an export tariff's cheapest window means nothing to a household (its best is the highest)
    if (latest && !/-OUTGOING-|-EXPORT-/.test(tariff)) {
      const { start, end } = localDayBounds(latest.local_date);
      for (const w of await cheapestWindows(warehouse, { tariff, slots: 4, perDay: true, from: start, to: end })) {
        summary.cheapest.push({
          tariff_code: tariff, latest_day: latest.local_date, local_start: w.local_start, local_end: w.local_end,
          mean_p_kwh: pence(w.mean_inc_vat),
        });
      }
    }
    const slots = slotsOf(tariff);
    const runs = runsOf(tariff);
    // Ties go to the earliest, so the summary reads the same on every run.
    const lowest = slots.reduce<(typeof slots)[number] | undefined>((m, s) => (m === undefined || s.value_inc_vat < m.value_inc_vat ? s : m), undefined);
    const longest = runs.reduce<(typeof runs)[number] | undefined>((m, r) => (m === undefined || r.slots > m.slots ? r : m), undefined);
    summary.negatives.push({
      tariff_code: tariff,
      negative_half_hours: slots.length,
      days: new Set(slots.map((s) => s.local_date)).size,
      runs: runs.length,
      longest_run_slots: longest?.slots ?? null,
      longest_from: longest?.local_start ?? null,
      lowest_p_kwh: lowest ? pence(lowest.value_inc_vat) : null,
      lowest_at: lowest?.local_start ?? null,
    });
    for (const d of days.filter((day) => day.expected_slots !== 48)) {
      summary.clockChanges.push({
        tariff_code: tariff, local_date: d.local_date, change: d.expected_slots === 46 ? 'clocks forward' : 'clocks back',
        slots: d.slots, expected_slots: d.expected_slots,
      });
    }
  }
  return summary;
}

function numberOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

/** Pence summed in doubles → pounds to the penny, the summation's last-bit noise rounded away first. */
function poundsOf(pence: number): number {
  return Math.round(Number(pence.toFixed(6))) / 100;
}

/** Two decimals, rounding the 9th-decimal noise of a mean away first (as priceSql does). */
function pence(value: number): number {
  return Math.round(Number(value.toFixed(9)) * 100) / 100;
}

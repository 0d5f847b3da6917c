// What `tariffs demo` prints: per half-hourly tariff the cheapest 2-hour window of its latest
// complete local day, negative-price statistics, and the clock-change days found with their
// half-hour counts. The numbers come from src/analytics (the views and macros of sql/); this
// module only picks rows and counts them.
import { cheapestWindows, dailyStats, negativeRuns, negativeSlots } from '../analytics/index.js';
import { render } from '../cli/output.js';
import type { Warehouse } from '../store/Warehouse.js';
import { localDayBounds } from '../time/index.js';

export type SummaryRow = Record<string, string | number | null>;

export interface DemoSummary {
  cheapest: SummaryRow[];
  negatives: SummaryRow[];
  clockChanges: SummaryRow[];
}

export async function demoSummary(warehouse: Warehouse, tariffs: string[]): Promise<DemoSummary> {
  const summary: DemoSummary = { cheapest: [], negatives: [], clockChanges: [] };
  for (const tariff of tariffs) {
    const days = await dailyStats(warehouse, { tariff });
    // The latest local day with all its 46/48/50 half-hours, else the latest day there is.
    const latest = days.filter((d) => d.slots === d.expected_slots).at(-1) ?? days.at(-1);
    if (latest) {
      const { start, end } = localDayBounds(latest.local_date);
      for (const w of await cheapestWindows(warehouse, { tariff, slots: 4, perDay: true, from: start, to: end })) {
        summary.cheapest.push({
          tariff_code: tariff, latest_day: latest.local_date, local_start: w.local_start, local_end: w.local_end,
          mean_p_kwh: pence(w.mean_inc_vat),
        });
      }
    }
    const slots = await negativeSlots(warehouse, { tariff });
    const runs = await negativeRuns(warehouse, { tariff });
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

/** On one 40-line screen: tables without their row counts, tariffs without negative prices named
 *  in a line, clock-change days counted per tariff (each day's half-hours are in \`tariffs daily\`). */
export function formatDemoSummary(summary: DemoSummary): string {
  const days = summary.clockChanges;
  const complete = days.filter((d) => d.slots === d.expected_slots);
  const table = (rows: SummaryRow[]) => render(rows, 'table').replace(/\n\d+ rows?[^\n]*\n$/, '\n');
  const negative = summary.negatives.filter((n) => (n.negative_half_hours as number) > 0);
  const none = summary.negatives.filter((n) => n.negative_half_hours === 0).map((n) => n.tariff_code);
  const perTariff = [...new Set(days.map((d) => d.tariff_code as string))].map((tariff) => {
    const own = days.filter((d) => d.tariff_code === tariff);
    const ok = (n: number) => own.filter((d) => d.expected_slots === n && d.slots === n).length;
    return {
      tariff_code: tariff, first: own[0]!.local_date, last: own.at(-1)!.local_date,
      clocks_forward_46: `${ok(46)}/${own.filter((d) => d.expected_slots === 46).length}`,
      clocks_back_50: `${ok(50)}/${own.filter((d) => d.expected_slots === 50).length}`,
    };
  });
  return [
    'Cheapest 2-hour window of the latest complete local day (p/kWh inc VAT):',
    table(summary.cheapest),
    'Negative prices:',
    table(negative),
    ...(none.length > 0 ? [`No negative prices: ${none.join(', ')}.`] : []),
    '',
    `Clock-change days found: ${days.length} (${complete.length} complete; ` +
      `${complete.filter((d) => d.slots === 46).length} of 46 half-hours, ${complete.filter((d) => d.slots === 50).length} of 50), complete/found per tariff:`,
    table(perTariff as unknown as SummaryRow[]),
  ].join('\n');
}

/** Two decimals, rounding the 9th-decimal noise of a mean away first (as priceSql does). */
function pence(value: number): number {
  return Math.round(Number(value.toFixed(9)) * 100) / 100;
}

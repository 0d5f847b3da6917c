// What `tariffs demo` prints: per half-hourly tariff the cheapest 2-hour window of its latest
// complete local day, negative-price statistics, and the clock-change days found with their
// half-hour counts. The numbers come from src/analytics (the views and macros of sql/); this
// module only picks rows and counts them.
import { cheapestWindows, dailyStats, negativeRuns, negativeSlots, netCosts, tariffComparison } from '../analytics/index.js';
import { HOUSEHOLD } from '../sandbox/loadSandboxData.js';
import { render } from '../cli/output.js';
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
  for (const tariff of tariffs) {
    const days = await dailyStats(warehouse, { tariff });
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

/** On one 40-line screen (39 lines and the prompt): tables without their row counts, tariffs without negative prices named
 *  in a line, clock-change days counted per tariff (each day's half-hours are in \`tariffs daily\`). */
export function formatDemoSummary(summary: DemoSummary): string {
  const days = summary.clockChanges;
  const complete = days.filter((d) => d.slots === d.expected_slots);
  const table = (rows: SummaryRow[]) => render(rows, 'table').replace(/\n\d+ rows?[^\n]*\n$/, '\n');
  const negative = summary.negatives.filter((n) => (n.negative_half_hours as number) > 0);
  const none = summary.negatives.filter((n) => n.negative_half_hours === 0).map((n) => n.tariff_code);
  const tariffs = [...new Set(days.map((d) => d.tariff_code as string))];
  const prefix = commonPrefix(tariffs);
  const perTariff = tariffs.map((tariff) => {
    const own = days.filter((d) => d.tariff_code === tariff);
    const count = (n: number) => `${own.filter((d) => d.expected_slots === n && d.slots === n).length}/${own.filter((d) => d.expected_slots === n).length}`;
    return `${tariff.slice(prefix.length)} ${count(46)} | ${count(50)}`;
  });
  return [
    'Cheapest 2-hour window of the latest complete local day (p/kWh inc VAT):',
    table(summary.cheapest),
    'Negative prices:',
    table(negative).trimEnd(),
    ...(none.length > 0 ? [`No negative prices: ${shortCodes(none.map(String)).join(', ')}.`] : []),
    `Clock-change days found: ${days.length} (${complete.length} complete; ` +
      `${complete.filter((d) => d.slots === 46).length} of 46 half-hours, ${complete.filter((d) => d.slots === 50).length} of 50). ` +
      `${prefix}…, complete/found 46 | 50:`,
    ...wrap(perTariff, 118).map((line) => `  ${line}`),
    ...(summary.household ? [
      '',
      householdTitle(summary.household.comparison),
      table(summary.household.comparison.map(({ standing_charge_missing_days: _sc, carried_half_hours: _ch, carried_from: _cf, ...row }) => row)).trimEnd(),
      ...carriedNote(summary.household.comparison),
      `Import less export: ${netLine(summary.household.net[0]!, actualCarried(summary.household.comparison))}.`,
    ] : []),
  ].join('\n');
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

/** Codes with their shared prefix said once: E-1R-AGILE-18-02-21-C, …24-10-01-M. */
function shortCodes(codes: string[]): string[] {
  const prefix = commonPrefix(codes);
  return codes.map((code, i) => (i === 0 ? code : `…${code.slice(prefix.length)}`));
}

/** The longest prefix of every code that ends at a '-' (E-1R-AGILE-), or ''. */
function commonPrefix(codes: string[]): string {
  if (codes.length < 2) return '';
  let prefix = codes[0]!;
  for (const code of codes) while (!code.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix.slice(0, prefix.lastIndexOf('-') + 1);
}

/** Items joined with commas into lines of at most `width` characters. */
function wrap(items: string[], width: number): string[] {
  const lines: string[] = [];
  for (const item of items) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 2 + item.length <= width) lines[lines.length - 1] = `${last}, ${item}`;
    else lines.push(item);
  }
  return lines;
}

function money(value: unknown): string {
  return value === null || value === undefined ? 'unknown (months without prices)' : `£${Number(value).toFixed(2)}`;
}

/** What the comparison is: the household, its year, and whether standing charges are in it. */
function householdTitle(rows: SummaryRow[]): string {
  const energyOnly = rows.some((r) => (r.standing_charge_missing_days as number) > 0);
  return `The sandbox household (meter ${HOUSEHOLD.importMpan}, ${HOUSEHOLD.from.slice(0, 7)} to ${HOUSEHOLD.to.slice(0, 7)}), £ inc VAT` +
    (energyOnly ? ', energy only (no standing charges stored):' : ', standing charges included:');
}

/** Under the comparison: which totals rest on a price carried past its last published rate. */
function carriedNote(rows: SummaryRow[]): string[] {
  const carried = rows.filter((r) => (r.carried_half_hours as number) > 0);
  if (carried.length === 0) return [];
  const from = carried.map((r) => String(r.carried_from)).sort()[0];
  const named = carried.map((r) => String(r.tariff)).filter((t) => !t.startsWith('actual'));
  return [`* at ${named.length > 0 ? `${named.join(', ')}'s` : 'an agreement\'s'} last published rate (open-ended, from ${from}) ` +
    'carried forward: not a price of that time'];
}

/** Whether the agreements' own total ('actual') rests on a carried price (so does the net). */
function actualCarried(rows: SummaryRow[]): boolean {
  return rows.some((r) => String(r.tariff).startsWith('actual') && (r.carried_half_hours as number) > 0);
}

function netLine(net: SummaryRow, carried: boolean): string {
  return `${money(net.net_gbp)}${carried ? '*' : ''} over ${net.months} months; the export (${HOUSEHOLD.exportMpan}, Agile Outgoing C) ` +
    `earned ${money(net.export_earnings_gbp)} for ${net.export_kwh} kWh`;
}

// The text `tariffs demo` prints from a DemoSummary (src/demo/demoSummary.ts computes it): on one
// 40-line screen, tables without their row counts, long lists of codes shortened and wrapped.
import type { DemoSummary, SummaryRow } from '../demo/demoSummary.js';
import { HOUSEHOLD } from '../sandbox/loadSandboxData.js';
import { render } from './output.js';

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

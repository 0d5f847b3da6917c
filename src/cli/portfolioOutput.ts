// What `tariffs cost --all-meters` and `tariffs compare --all-meters` share: every meter's rows
// (src/analytics/portfolioCosts.ts) with a progress bar on a terminal, the tariffs left out for
// meters of another fuel or direction said on stderr, and the table layouts, meter_point first.
import { portfolioCosts, type PortfolioQuestion, type PortfolioRequest } from '../analytics/index.js';
import { portfolioStatement } from '../analytics/portfolioCosts.js';
import type { Warehouse } from '../store/Warehouse.js';
import { LAYOUTS, warnCarried, warnIncomplete } from './costOutput.js';
import type { OutputFormat } from './output.js';
import { createStepBar } from './progressBar.js';
import { printSql } from './printSql.js';
import { output } from './questions.js';
import type { TableLayout } from './table.js';

const withMeter = (layout: TableLayout, key: string[] = []): TableLayout =>
  ({ answer: ['meter_point', ...layout.answer ?? []], key: [...key, ...layout.key ?? []] });
const LAYOUT: Record<PortfolioQuestion, TableLayout> = {
  day: withMeter(LAYOUTS.day, ['scenario']),
  month: withMeter(LAYOUTS.month, ['scenario']),
  compare: withMeter(LAYOUTS.compare),
};

/** `sql`: print the statement (every meter in $meters) instead of running it. */
export async function printPortfolio(warehouse: Warehouse, format: OutputFormat, question: PortfolioQuestion,
  request: Omit<PortfolioRequest, 'progress'>, sql = false): Promise<void> {
  if (sql) return printSql((await portfolioStatement(warehouse, question, request)).query);
  const bar = await createStepBar('pricing', 'meters');
  let answer;
  try {
    answer = await portfolioCosts(warehouse, question, { ...request, ...(bar ? { progress: { expect: (n) => bar.expect(n), done: (n) => bar.done(n) } } : {}) });
  } finally {
    bar?.stop();
  }
  const { rows, skipped } = answer;
  if (skipped.length > 0) {
    const meters = new Set(skipped.map((s) => s.meter_point));
    process.stderr.write(`tariffs: ${skipped.length} tariff(s) not priced for ${meters.size} meter(s) of another fuel or direction ` +
      `(first: ${skipped[0]!.tariff} for ${skipped[0]!.why})\n`);
  }
  warnIncomplete(rows);
  if (question !== 'compare') warnCarried(rows);
  else if (rows.some((r) => Number(r.carried_half_hours ?? 0) > 0)) {
    process.stderr.write(`tariffs: ${rows.filter((r) => Number(r.carried_half_hours ?? 0) > 0).length} of ${rows.length} rows rest on prices carried ` +
      'from a last published rate (their caveats say so)\n');
  }
  output(rows, format, LAYOUT[question]);
}

// The HTML report page around the rendered charts: one self-contained document (inline CSS and
// SVG, system fonts, no script, no link to anything outside the page), sections per price series.
import { COLORS } from './chartSpecs.js';

export interface PageChart {
  /** `day` or `month` (what the chart covers) or `history`. */
  kind: 'day' | 'month' | 'history';
  /** The local date, YYYY-MM month, or `all`. */
  period: string;
  svg: string;
}

export interface PageSeries {
  /** An id for the anchor, e.g. the tariff code. */
  id: string;
  heading: string;
  /** Label → value lines shown above the charts. */
  facts: [string, string][];
  history?: PageChart;
  days: PageChart[];
  months: PageChart[];
  /** Months older than the charted ones, covered only by the history chart. */
  monthsNotCharted: number;
  /** Headings of the history, days and months blocks, when not a price series' own ("All months",
   *  "Last n local days", "Earlier months (n, newest first)"): a cost section says what its charts are. */
  headings?: { history?: string; days?: string; months?: string };
}

export interface PageModel {
  title: string;
  /** One line saying what the page covers (never the time it was made: re-exports are identical). */
  description: string;
  limits: string;
  series: PageSeries[];
}

export function renderReportPage(model: PageModel): string {
  const toc = model.series.map((s) => `<li><a href="#${attr(s.id)}">${text(s.heading)}</a></li>`).join('\n');
  const sections = model.series.map(renderSeries).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${text(model.title)}</title>
<style>
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 1.5rem; color: #222; max-width: 1200px; }
h1 { font-size: 1.4rem; margin-bottom: .2rem; }
h2 { font-size: 1.15rem; margin-top: 2.5rem; border-bottom: 1px solid #ccc; padding-bottom: .2rem; }
h3 { font-size: .95rem; margin: 1.2rem 0 .4rem; color: #444; }
p.note, p.limits { color: #555; font-size: .85rem; margin: .2rem 0; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: .1rem 1rem; font-size: .85rem; margin: .5rem 0; }
dl.facts dt { color: #555; }
dl.facts dd { margin: 0; font-variant-numeric: tabular-nums; }
.charts { display: flex; flex-wrap: wrap; gap: .5rem 1rem; }
figure { margin: 0; }
.legend span { display: inline-block; margin-right: 1.2rem; font-size: .85rem; }
.legend i { display: inline-block; width: .9rem; height: .6rem; margin-right: .3rem; vertical-align: middle; }
</style>
</head>
<body>
<h1>${text(model.title)}</h1>
<p class="note">${text(model.description)}</p>
<p class="limits">${text(model.limits)}</p>
<p class="legend">
<span><i style="background:${COLORS.price}"></i>price (p/kWh inc VAT; monthly: daily mean)</span>
<span><i style="background:${COLORS.range}"></i>daily or monthly min–max</span>
<span><i style="background:${COLORS.negative}"></i>negative prices</span>
<span><i style="background:${COLORS.cheapest}"></i>cheapest 2-hour window</span>
<span><i style="background:${COLORS.dearest}"></i>dearest 2-hour window (export tariffs: the best time to export)</span>
</p>
<ul>
${toc}
</ul>
${sections}
</body>
</html>
`;
}

function renderSeries(series: PageSeries): string {
  const facts = series.facts.map(([k, v]) => `<dt>${text(k)}</dt><dd>${text(v)}</dd>`).join('');
  const parts = [
    `<section id="${attr(series.id)}">`,
    `<h2>${text(series.heading)}</h2>`,
    `<dl class="facts">${facts}</dl>`,
  ];
  const h = series.headings ?? {};
  if (series.history) parts.push(`<h3>${text(h.history ?? 'All months')}</h3>`, figures([series.history]));
  if (series.days.length > 0) {
    parts.push(`<h3>${text(h.days ?? `Last ${series.days.length} local day${series.days.length === 1 ? '' : 's'}`)}</h3>`, figures(series.days));
  }
  if (series.months.length > 0) {
    const earlier = `Earlier months (${series.months.length === 1 ? 'one month' : `${series.months.length}, newest first`})`;
    parts.push(`<h3>${text(h.months ?? earlier)}</h3>`, figures(series.months));
  }
  if (series.monthsNotCharted > 0) {
    parts.push(`<p class="note">${series.monthsNotCharted} older month${series.monthsNotCharted === 1 ? ' is' : 's are'} shown only in the all-months chart.</p>`);
  }
  parts.push('</section>');
  return parts.join('\n');
}

function figures(charts: PageChart[]): string {
  const items = charts.map((c) => `<figure class="chart" data-kind="${attr(c.kind)}" data-period="${attr(c.period)}">${c.svg}</figure>`);
  return `<div class="charts">\n${items.join('\n')}\n</div>`;
}

function text(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attr(value: string): string {
  return text(value).replace(/"/g, '&quot;');
}

// The HTML report page around the rendered charts: one self-contained document (inline CSS and
// SVG, system fonts, no script, no link to anything outside the page): the header, the household's
// costs (a table per meter, then each meter's charts), then the price sections, older history
// folded away (<details>).
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
  /** Blocks folded away (<details>), drawn after the days: a price series' older history. */
  folded?: ('history' | 'months')[];
}

/** A cell of a household table: the figure and what it is (best, ranked, not ranked, …). */
export interface PageCell {
  text: string;
  mark: 'best' | 'ranked' | 'unranked' | 'same' | 'none';
  /** Said under the figure, e.g. "cheapest", "† carried price: not ranked". */
  note?: string;
}

/** A table of the household section: a heading, a row per scenario, notes under it. */
export interface PageTable {
  id: string;
  heading: string;
  /** Where the same meter's charts are. */
  link?: { href: string; text: string };
  columns: string[];
  rows: { swatch?: string; label: string; cells: PageCell[] }[];
  notes: string[];
}

/** The household's section: first after the header when the warehouse holds meters. */
export interface HouseholdModel {
  id: string;
  heading: string;
  intro: string[];
  tables: PageTable[];
}

export interface PageModel {
  title: string;
  /** One line saying what the page covers (never the time it was made: re-exports are identical). */
  description: string;
  limits: string;
  /** The household's costs, first (none without meters). */
  household?: HouseholdModel;
  /** Each meter's charts, after the household's tables. */
  meters?: PageSeries[];
  /** The price series, in the page's order (the newest first). */
  series: PageSeries[];
}

export function renderReportPage(model: PageModel): string {
  const meters = model.meters ?? [];
  const toc = model.series.map((s) => `<li><a href="#${attr(s.id)}">${text(s.heading)}</a></li>`).join('\n');
  const nav = model.household
    ? `<p class="nav">On this page: <a href="#${attr(model.household.id)}">${text(model.household.heading)}</a>` +
      `${meters.map((m) => ` · <a href="#${attr(m.id)}">${text(m.heading)}</a>`).join('')} · <a href="#prices">Prices</a></p>\n`
    : '';
  const household = model.household ? `${renderHousehold(model.household)}\n${meters.map(renderSeries).join('\n')}\n` : '';
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
p.note, p.limits, p.nav { color: #555; font-size: .85rem; margin: .2rem 0; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: .1rem 1rem; font-size: .85rem; margin: .5rem 0; }
dl.facts dt { color: #555; }
dl.facts dd { margin: 0; font-variant-numeric: tabular-nums; }
.charts { display: flex; flex-wrap: wrap; gap: .5rem 1rem; }
figure { margin: 0; }
details.older { margin: .6rem 0; }
details.older > summary { cursor: pointer; color: #444; }
details.older > summary h3 { display: inline; }
table.costs { border-collapse: collapse; font-size: .9rem; margin: .3rem 0 .4rem; }
table.costs th, table.costs td { border-bottom: 1px solid #ddd; padding: .3rem .8rem .3rem 0; text-align: left; vertical-align: top; }
table.costs td.figure { font-variant-numeric: tabular-nums; white-space: nowrap; }
table.costs td.figure small { display: block; color: #555; font-size: .78rem; }
table.costs td.best { font-weight: 600; }
table.costs td.unranked, table.costs td.same, table.costs td.none { color: #777; }
table.costs i.swatch { display: inline-block; width: .8rem; height: .8rem; margin-right: .4rem; vertical-align: -.1rem; }
.legend span { display: inline-block; margin-right: 1.2rem; font-size: .85rem; }
.legend i { display: inline-block; width: .9rem; height: .6rem; margin-right: .3rem; vertical-align: middle; }
</style>
</head>
<body>
<h1>${text(model.title)}</h1>
<p class="note">${text(model.description)}</p>
${nav}${household}<div id="prices" class="prices">
<h2>Prices</h2>
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
</div>
${sections}
</body>
</html>
`;
}

function renderHousehold(household: HouseholdModel): string {
  const parts = [
    `<section id="${attr(household.id)}" class="household">`,
    `<h2>${text(household.heading)}</h2>`,
    ...household.intro.map((line) => `<p class="note">${text(line)}</p>`),
  ];
  for (const table of household.tables) {
    const head = table.columns.map((c) => `<th>${text(c)}</th>`).join('');
    const rows = table.rows.map((row) => {
      const swatch = row.swatch ? `<i class="swatch" style="background:${attr(row.swatch)}"></i>` : '';
      const cells = row.cells.map((c) => `<td class="figure ${c.mark}">${text(c.text)}${c.note ? `<small>${text(c.note)}</small>` : ''}</td>`).join('');
      return `<tr><td>${swatch}${text(row.label)}</td>${cells}</tr>`;
    });
    const link = table.link ? ` <a class="more" href="${attr(table.link.href)}">${text(table.link.text)}</a>` : '';
    parts.push(
      `<h3 id="${attr(table.id)}">${text(table.heading)}</h3>`,
      `<table class="costs">\n<thead><tr>${head}</tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table>`,
      ...table.notes.map((n) => `<p class="note">${text(n)}</p>`),
      ...(link ? [`<p class="note">Charts:${link}</p>`] : []),
    );
  }
  parts.push('</section>');
  return parts.join('\n');
}

function renderSeries(series: PageSeries): string {
  const facts = series.facts.map(([k, v]) => `<dt>${text(k)}</dt><dd>${text(v)}</dd>`).join('');
  const parts = [
    `<section id="${attr(series.id)}">`,
    `<h2>${text(series.heading)}</h2>`,
    `<dl class="facts">${facts}</dl>`,
  ];
  const h = series.headings ?? {};
  const folded = new Set(series.folded ?? []);
  const block = (heading: string, charts: PageChart[], fold: boolean) => (fold
    ? `<details class="older">\n<summary><h3>${text(heading)}</h3></summary>\n${figures(charts)}\n</details>`
    : `<h3>${text(heading)}</h3>\n${figures(charts)}`);
  const history = series.history ? block(h.history ?? 'All months', [series.history], folded.has('history')) : undefined;
  if (history && !folded.has('history')) parts.push(history);
  if (series.days.length > 0) {
    parts.push(block(h.days ?? `Last ${series.days.length} local day${series.days.length === 1 ? '' : 's'}`, series.days, false));
  }
  if (series.months.length > 0) {
    const earlier = `Earlier months (${series.months.length === 1 ? 'one month' : `${series.months.length}, newest first`})`;
    parts.push(block(h.months ?? earlier, series.months, folded.has('months')));
  }
  if (series.monthsNotCharted > 0) {
    parts.push(`<p class="note">${series.monthsNotCharted} older month${series.monthsNotCharted === 1 ? ' is' : 's are'} shown only in the all-months chart.</p>`);
  }
  if (history && folded.has('history')) parts.push(history);
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

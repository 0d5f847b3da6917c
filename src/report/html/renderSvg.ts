// Vega-Lite spec → SVG text, rendered in Node with Vega's headless view (no canvas, no DOM, no
// network): what the HTML report inlines, so the page needs nothing at view time. Vega and
// Vega-Lite are loaded on the first chart, not with the command line: they take ~0.2 s to load,
// a third of the start of every other command.
//
// A report's charts come in few forms: a series' 14 day charts differ in their data and titles,
// and mostly in nothing else. What Vega-Lite compiles and Vega parses of a form (~60% of a chart's
// time) is kept for the next chart of that form, which gets a View of its own with its data (named
// data sets) and titles (signals). A View is never used for two charts: one that was rendered
// keeps the sizes and scales of its first data (Vega's autosize does not resize), and drew a
// history chart with another series' price axis. The demo's 126 price charts are 74 forms. Drawn
// a second time in one process: 1.57-1.63 s each from its spec, 1.14-1.29 s with the forms kept.
// `tariffs export --format html` of the demo's warehouse, alternated, four runs each: the price
// charts 3.2-4.0 s -> 2.8-3.7 s, the command 5.2-5.9 s -> 5.3-5.6 s wall; report.html byte-identical
// (html-costs.test.ts and export-charts.test.ts hold each chart to its spec drawn alone).
import type * as Vega from 'vega';
import type { TopLevelSpec } from 'vega-lite';

export type { TopLevelSpec } from 'vega-lite';

/** One layer of a layered chart, as vega-lite's public TopLevelSpec types it. */
export type ChartLayer = Extract<TopLevelSpec, { layer: unknown }>['layer'][number];

/** Where Vega's and Vega-Lite's warnings go (they would otherwise print on the console). */
export type ChartWarning = (message: string) => void;

let libraries: Promise<[typeof Vega, typeof import('vega-lite')]> | undefined;

const TITLE = 'tariffs_title';
const SUBTITLE = 'tariffs_subtitle';

/** A chart less what varies between charts of one form: its data and titles, with their names. */
interface Form {
  key: string;
  spec: TopLevelSpec;
  data: [name: string, values: unknown[]][];
  title: string | string[] | undefined;
  subtitle: string | string[] | undefined;
}

/** Draws a report's charts; keeps what it made of each form for the next chart of that form. */
export class ChartRenderer {
  private readonly forms = new Map<string, Vega.Runtime>();

  constructor(private readonly onWarning: ChartWarning = () => undefined) {}

  /**
   * The chart as an `<svg>` element ready to inline in HTML5. The namespace declarations Vega adds
   * are dropped: an inline <svg> in HTML needs none, and the page then holds no http(s):// text.
   */
  async render(spec: TopLevelSpec): Promise<string> {
    libraries ??= Promise.all([import('vega'), import('vega-lite')]);
    const [vega, vegaLite] = await libraries;
    const logger = warningsTo(vega, this.onWarning);
    const form = formOf(spec);
    let runtime = this.forms.get(form.key);
    if (runtime === undefined) {
      runtime = vega.parse(titlesAsSignals(vegaLite.compile(form.spec, { logger }).spec));
      this.forms.set(form.key, runtime);
    }
    const view = new vega.View(runtime, { renderer: 'none', logger });
    try {
      for (const [name, values] of form.data) view.data(name, values);
      if (form.title !== undefined) view.signal(TITLE, form.title);
      if (form.subtitle !== undefined) view.signal(SUBTITLE, form.subtitle);
      const svg = await view.toSVG();
      return svg.replace(/ xmlns(:xlink)?="[^"]*"/g, '');
    } finally {
      view.finalize();
    }
  }
}

/** The spec with its inline data (top level and each layer's) named instead, and placeholder
 *  titles of the same shape; anything else stays, and is part of the form's key. */
function formOf(spec: TopLevelSpec): Form {
  const data: Form['data'] = [];
  const named = <T extends { data?: unknown }>(part: T, name: string): T => {
    const values = (part.data as { values?: unknown } | undefined)?.values;
    if (!Array.isArray(values)) return part;
    data.push([name, values]);
    return { ...part, data: { name } };
  };
  let form = named(spec as TopLevelSpec & { data?: unknown }, 'tariffs_data');
  if ('layer' in form && Array.isArray(form.layer)) {
    form = { ...form, layer: form.layer.map((layer, i) => named(layer as ChartLayer & { data?: unknown }, `tariffs_layer_${i}`)) } as typeof form;
  }
  const title = typeof spec.title === 'string' || Array.isArray(spec.title) ? { text: spec.title } : spec.title;
  const text = title?.text as string | string[] | undefined;
  const subtitle = title?.subtitle as string | string[] | undefined;
  const placeholder = (t: string | string[] | undefined) => (t === undefined ? undefined : Array.isArray(t) ? t.map(() => 'T') : 'T');
  if (title !== undefined) {
    form = { ...form, title: { ...title, text: placeholder(text)!, ...(subtitle === undefined ? {} : { subtitle: placeholder(subtitle)! }) } };
  }
  return { key: JSON.stringify(form), spec: form, data, title: text, subtitle };
}

/** The compiled spec with its title and subtitle read from signals (set for each chart). */
function titlesAsSignals(spec: Vega.Spec): Vega.Spec {
  if (spec.title === undefined) return spec;
  const title: Vega.Title = typeof spec.title === 'string' ? { text: spec.title } : spec.title;
  return {
    ...spec,
    signals: [...(spec.signals ?? []), { name: TITLE, value: '' }, ...(title.subtitle === undefined ? [] : [{ name: SUBTITLE, value: '' }])],
    title: { ...title, text: { signal: TITLE }, ...(title.subtitle === undefined ? {} : { subtitle: { signal: SUBTITLE } }) },
  };
}

function warningsTo(vega: typeof Vega, onWarning: ChartWarning): Vega.LoggerInterface {
  const text = (args: readonly unknown[]) => args.map(String).join(' ');
  const logger: Vega.LoggerInterface = {
    level: (...args: number[]) => (args.length === 0 ? vega.Warn : logger) as never,
    error: (...args: readonly unknown[]) => {
      onWarning(text(args));
      return logger;
    },
    warn: (...args: readonly unknown[]) => {
      onWarning(text(args));
      return logger;
    },
    info: () => logger,
    debug: () => logger,
  };
  return logger;
}

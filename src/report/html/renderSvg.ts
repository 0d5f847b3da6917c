// Vega-Lite spec → SVG text, rendered in Node with Vega's headless view (no canvas, no DOM, no
// network): what the HTML report inlines, so the page needs nothing at view time. Vega and
// Vega-Lite are loaded on the first chart, not with the command line: they take ~0.2 s to load,
// a third of the start of every other command.
//
// A report's charts come in few forms: a series' 14 day charts differ in their data and titles,
// and mostly in nothing else. What Vega-Lite compiles and Vega parses of a form (~60% of a chart's
// time) is kept for the next chart of that form, which gets a View of its own with its data (named
// data sets), titles and the numbers that differ between series and months (signals: a scale's
// literal domain, an axis' tick values and title). A View is never used for two charts: one that
// was rendered keeps the sizes and scales of its first data (Vega's autosize does not resize), and
// drew a history chart with another series' price axis. The demo's 126 price charts were 74 forms
// with data and titles as the only signals (the price axis is per series, a month chart's length
// and axis title its own), and are 8 forms with the numbers too. `tariffs export --format html` of
// the demo's warehouse, alternated with the code before, three runs each: the price charts 4.0,
// 4.0, 3.3 s -> 2.9, 2.2, 2.4 s; the command 6.3, 6.1, 5.2 s -> 5.1, 4.1, 4.4 s wall; report.html
// byte-identical. (Data and titles alone, the stop before: 3.2-4.0 s -> 2.8-3.7 s.) Tests hold each
// chart to its spec drawn plainly (test/helpers/plainSvg.ts: compile, View, SVG; no forms).
import type * as Vega from 'vega';
import type { TopLevelSpec } from 'vega-lite';

export type { TopLevelSpec } from 'vega-lite';

/** One layer of a layered chart, as vega-lite's public TopLevelSpec types it. */
export type ChartLayer = Extract<TopLevelSpec, { layer: unknown }>['layer'][number];

/** Where Vega's and Vega-Lite's warnings go (they would otherwise print on the console). */
export type ChartWarning = (message: string) => void;

let libraries: Promise<[typeof Vega, typeof import('vega-lite')]> | undefined;

/** Vega and Vega-Lite, loaded once: the first chart waits for them, and a caller that will draw
 *  charts may start the loading while it waits on something else (the export, on its queries). */
export function chartLibraries(): Promise<[typeof Vega, typeof import('vega-lite')]> {
  libraries ??= Promise.all([import('vega'), import('vega-lite')]);
  return libraries;
}

const TITLE = 'tariffs_title';
const SUBTITLE = 'tariffs_subtitle';

/** A chart less what varies between charts of one form: its data and titles, with their names. */
interface Form {
  key: string;
  spec: TopLevelSpec;
  data: [name: string, values: unknown[]][];
  title: string | string[] | undefined;
  subtitle: string | string[] | undefined;
  /** Signals of the form set for this chart: its scale domains, axis tick values and titles. */
  signals: [name: string, value: unknown][];
}

/** Draws a report's charts; keeps what it made of each form for the next chart of that form. */
export class ChartRenderer {
  private readonly forms = new Map<string, Vega.Runtime>();

  constructor(private readonly onWarning: ChartWarning = () => undefined) {}

  /** How many forms were compiled (one per chart drawn that no earlier chart shared a form with). */
  get formsCompiled(): number {
    return this.forms.size;
  }

  /**
   * The chart as an `<svg>` element ready to inline in HTML5. The namespace declarations Vega adds
   * are dropped: an inline <svg> in HTML needs none, and the page then holds no http(s):// text.
   */
  async render(spec: TopLevelSpec): Promise<string> {
    const [vega, vegaLite] = await chartLibraries();
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
      for (const [name, value] of form.signals) view.signal(name, value);
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
  let form = eachPart(spec, (part, layer) => named(part, layer === undefined ? 'tariffs_data' : `tariffs_layer_${layer}`));
  const title = typeof spec.title === 'string' || Array.isArray(spec.title) ? { text: spec.title } : spec.title;
  const text = title?.text as string | string[] | undefined;
  const subtitle = title?.subtitle as string | string[] | undefined;
  const placeholder = (t: string | string[] | undefined) => (t === undefined ? undefined : Array.isArray(t) ? t.map(() => 'T') : 'T');
  if (title !== undefined) {
    form = { ...form, title: { ...title, text: placeholder(text)!, ...(subtitle === undefined ? {} : { subtitle: placeholder(subtitle)! }) } };
  }
  const signals = numbersAsSignals(form);
  // the key names the signals, not their values (each chart sets its own)
  const key = JSON.stringify(signals.form, (k, v: unknown) => (k === 'params' ? (v as { name: string }[]).map((p) => p.name) : v));
  return { key, spec: signals.form, data, title: text, subtitle, signals: signals.values };
}

/** Channels whose literal numbers (a scale's domain, an axis' tick values) are read from a signal
 *  instead, so that charts differing only in them (another series' price axis, a 23- or 25-hour
 *  day, a month's length) are one form. Equal arrays share one signal, as their scales do. */
function numbersAsSignals<T extends TopLevelSpec>(spec: T): { form: T; values: [string, unknown][] } {
  const values: [string, unknown][] = [];
  const names = new Map<string, string>();
  const named = (value: unknown): string => {
    const key = JSON.stringify(value);
    let name = names.get(key);
    if (name === undefined) {
      name = `tariffs_values_${names.size}`;
      names.set(key, name);
      values.push([name, value]);
    }
    return name;
  };
  const signal = (numbers: unknown): unknown =>
    Array.isArray(numbers) && numbers.every((n) => typeof n === 'number') ? { expr: named(numbers) } : numbers;
  const channel = (def: unknown): unknown => {
    if (typeof def !== 'object' || def === null || Array.isArray(def)) return def;
    const d = def as { scale?: { domain?: unknown }; axis?: { values?: unknown; title?: unknown } | null };
    return {
      ...d,
      ...(d.scale?.domain !== undefined ? { scale: { ...d.scale, domain: signal(d.scale.domain) } } : {}),
      ...(d.axis ? {
        axis: {
          ...d.axis,
          ...(d.axis.values !== undefined ? { values: signal(d.axis.values) } : {}),
          ...(typeof d.axis.title === 'string' ? { title: { signal: named(d.axis.title) } } : {}),
        },
      } : {}),
    };
  };
  const form = eachPart(spec, (part) => {
    const { encoding } = part as { encoding?: Record<string, unknown> };
    return encoding === undefined ? part : { ...part, encoding: Object.fromEntries(Object.entries(encoding).map(([k, v]) => [k, channel(v)])) };
  });
  if (values.length === 0) return { form, values };
  const params = [...((form as { params?: unknown[] }).params ?? []), ...values.map(([name, value]) => ({ name, value }))];
  return { form: { ...form, params } as T, values };
}

/** The spec with `change` made to its top level and then to each of its layers (their index). */
function eachPart<T extends TopLevelSpec>(spec: T, change: <P extends object>(part: P, layer?: number) => P): T {
  const top = change(spec);
  if (!('layer' in top) || !Array.isArray(top.layer)) return top;
  return { ...top, layer: top.layer.map((layer: ChartLayer, i: number) => change(layer, i)) };
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

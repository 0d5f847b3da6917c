// Vega-Lite spec → SVG text, rendered in Node with Vega's headless view (no canvas, no DOM, no
// network): what the HTML report inlines, so the page needs nothing at view time. Vega and
// Vega-Lite are loaded on the first chart, not with the command line: they take ~0.2 s to load,
// a third of the start of every other command.
import type * as Vega from 'vega';
import type { TopLevelSpec } from 'vega-lite';

export type { TopLevelSpec } from 'vega-lite';

/** One layer of a layered chart, as vega-lite's public TopLevelSpec types it. */
export type ChartLayer = Extract<TopLevelSpec, { layer: unknown }>['layer'][number];

/** Where Vega's and Vega-Lite's warnings go (they would otherwise print on the console). */
export type ChartWarning = (message: string) => void;

let libraries: Promise<[typeof Vega, typeof import('vega-lite')]> | undefined;

/**
 * The chart as an `<svg>` element ready to inline in HTML5. The namespace declarations Vega adds
 * are dropped: an inline <svg> in HTML needs none, and the page then holds no http(s):// text.
 */
export async function renderSvg(spec: TopLevelSpec, onWarning: ChartWarning = () => undefined): Promise<string> {
  libraries ??= Promise.all([import('vega'), import('vega-lite')]);
  const [vega, vegaLite] = await libraries;
  const logger = warningsTo(vega, onWarning);
  const view = new vega.View(vega.parse(vegaLite.compile(spec, { logger }).spec), { renderer: 'none', logger });
  try {
    const svg = await view.toSVG();
    return svg.replace(/ xmlns(:xlink)?="[^"]*"/g, '');
  } finally {
    view.finalize();
  }
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

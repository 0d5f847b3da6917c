// A Vega-Lite spec drawn to SVG text in Node (Vega's headless view: no canvas, no DOM, no network):
// what the HTML report inlines, so the page needs nothing at view time. Each chart from its own spec.
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

export type { TopLevelSpec } from 'vega-lite';

/** One layer of a layered chart, as vega-lite's public TopLevelSpec types it. */
export type ChartLayer = Extract<TopLevelSpec, { layer: unknown }>['layer'][number];

/** Where Vega's and Vega-Lite's warnings go (they would otherwise print on the console). */
export type ChartWarning = (message: string) => void;

/**
 * The chart as an `<svg>` element ready to inline in HTML5: the spec compiled, parsed and drawn by
 * a View of its own. The namespace declarations Vega adds are dropped: an inline <svg> in HTML
 * needs none, and the page then holds no http(s):// text.
 */
export async function renderSvg(spec: TopLevelSpec, onWarning: ChartWarning = () => undefined): Promise<string> {
  const logger = warningsTo(onWarning);
  const view = new vega.View(vega.parse(compile(spec, { logger }).spec), { renderer: 'none', logger });
  try {
    const svg = await view.toSVG();
    return svg.replace(/ xmlns(:xlink)?="[^"]*"/g, '');
  } finally {
    view.finalize();
  }
}

function warningsTo(onWarning: ChartWarning): vega.LoggerInterface {
  const text = (args: readonly unknown[]) => args.map(String).join(' ');
  const logger: vega.LoggerInterface = {
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

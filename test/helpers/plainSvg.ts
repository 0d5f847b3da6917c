// A chart drawn the plain way, from its Vega-Lite spec alone (compile, a View, SVG, the namespace
// declarations dropped as the report drops them), written apart from renderSvg: what tests hold
// the report's charts to.
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

export async function plainSvg(spec: TopLevelSpec): Promise<string> {
  const quiet = vega.logger(vega.None);
  const view = new vega.View(vega.parse(compile(spec, { logger: quiet }).spec), { renderer: 'none', logger: quiet });
  try {
    return (await view.toSVG()).replace(/ xmlns(:xlink)?="[^"]*"/g, '');
  } finally {
    view.finalize();
  }
}

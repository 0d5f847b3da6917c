// --ahead: the horizon of compare's question from here, read from the flag's text.
import { UsageError } from '../errors.js';
import { HORIZONS, type Horizon } from '../analytics/compareAhead.js';

export function parseHorizon(text: string): Horizon {
  const horizon = HORIZONS.find((h) => h === text.toLowerCase());
  if (!horizon) throw new UsageError(`--ahead: '${text}' is not one of ${HORIZONS.join(', ')}`);
  return horizon;
}

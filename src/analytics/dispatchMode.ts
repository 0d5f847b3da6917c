// Which Intelligent Octopus Go dispatches an answer counts (issue 28): the mode
// passed to effective_rates_with and the cost macros, and the line that says which was used.
import type { Warehouse } from '../store/Warehouse.js';

/** 'default': completed dispatches where known, the current plan for the future (what the bill
 *  will use); 'completed' or 'planned' only; 'none': the night band only. */
export type DispatchMode = 'default' | 'completed' | 'planned' | 'none';

export const DISPATCH_CHOICES = ['planned', 'completed', 'none'] as const;

export function describeDispatchMode(mode: DispatchMode): string {
  switch (mode) {
    case 'default': return 'completed dispatches where known, else planned ones for the future (default)';
    case 'completed': return 'completed dispatches only';
    case 'planned': return 'planned dispatches only (the current plan)';
    case 'none': return 'none (the night band only)';
  }
}

/** Whether the meter point ('MPAN' or 'MPAN:SERIAL') has an agreement on an Intelligent Octopus
 *  Go tariff: only then do dispatches change its prices. */
export async function meterOnIog(warehouse: Warehouse, meter: string): Promise<boolean> {
  const row = await warehouse.one(`
    SELECT count(*)::INTEGER AS n
    FROM agreements AS a LEFT JOIN tariffs AS t ON t.tariff_code = a.tariff_code
    WHERE a.meter_point = split_part($meter, ':', 1)
      AND (t.night_start_minutes IS NOT NULL OR a.tariff_code ILIKE '%-INTELLI-%')`, { meter });
  return Number(row?.n ?? 0) > 0;
}

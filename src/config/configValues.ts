// Config values that parse but must also mean something (the base URL, default_from, each
// schedule), shared by the config file's validation and loadConfig's check of flags and environment.
import { normaliseBaseUrl } from '../api/urls.js';
import { parseCron } from '../cron/fireTimes.js';
import { parseUserDateTime } from '../time/index.js';

export function valueProblems(values: { base_url?: unknown; default_from?: unknown; schedules?: unknown }, baseUrlSource = 'base_url'): string[] {
  const problems: string[] = [];
  const attempt = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      problems.push((error as Error).message);
    }
  };
  if (typeof values.base_url === 'string') attempt(() => normaliseBaseUrl(values.base_url as string, baseUrlSource));
  if (typeof values.default_from === 'string') attempt(() => parseUserDateTime(values.default_from as string, 'default_from'));
  if (values.schedules && typeof values.schedules === 'object') {
    for (const [key, expression] of Object.entries(values.schedules)) {
      if (typeof expression === 'string' && expression.trim() !== 'off') attempt(() => parseCron(expression.trim(), `schedules.${key}`));
    }
  }
  return problems;
}

export function listed(where: string, problems: string[]): string {
  return `${where}: ${problems.length === 1 ? problems[0] : `${problems.length} problems:\n  ${problems.join('\n  ')}`}`;
}

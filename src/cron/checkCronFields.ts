// A strict reading of a cron expression's fields before croner parses it: every value, range and
// step is checked against its field's range (a step beyond the range, `*/61`, would fire only at
// its start), with the field named in the error.

interface FieldRange {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
}

const SECOND: FieldRange = { name: 'second', min: 0, max: 59 };
const FIELDS: readonly FieldRange[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] },
  { name: 'day-of-week', min: 0, max: 7, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
];

/** Problems with the expression's fields (empty when it reads cleanly). */
export function cronFieldProblems(expression: string): string[] {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5 && parts.length !== 6) return [`expected 5 fields (or 6 with seconds), got ${parts.length}`];
  const ranges = parts.length === 6 ? [SECOND, ...FIELDS] : FIELDS;
  const problems: string[] = [];
  parts.forEach((text, i) => problems.push(...fieldProblems(text, ranges[i]!)));
  return problems;
}

function fieldProblems(text: string, range: FieldRange): string[] {
  const problems: string[] = [];
  const value = (token: string): number | undefined => {
    const named = range.names?.indexOf(token.toLowerCase().slice(0, 3)) ?? -1;
    if (named >= 0 && range.names && /^[a-z]+$/i.test(token)) return named + (range.name === 'month' ? 1 : 0);
    if (!/^\d+$/.test(token)) return undefined;
    return Number(token);
  };
  for (const item of text.split(',')) {
    const m = /^(\*|[^/-]+(?:-[^/-]+)?)(?:\/(.+))?$/.exec(item);
    if (!m) {
      problems.push(`${range.name} '${item}' is not a value, range or step`);
      continue;
    }
    const [, base, stepText] = m;
    let lo = range.min;
    let hi = range.max;
    if (base !== '*') {
      const [a, b] = base!.split('-');
      const from = value(a!);
      const to = b === undefined ? from : value(b);
      if (from === undefined || to === undefined) {
        problems.push(/[LW#?]/i.test(item)
          ? `${range.name} token '${item}' (L, W, #) is not supported`
          : `${range.name} '${item}' is not a number${range.names ? ' or a name' : ''}`);
        continue;
      }
      for (const v of new Set([from, to])) {
        if (v < range.min || v > range.max) problems.push(`${range.name} ${v} is outside ${range.min}-${range.max}`);
      }
      if (to < from) problems.push(`${range.name} range '${base}' runs backwards`);
      lo = from;
      hi = b === undefined ? range.max : to;
    }
    if (stepText !== undefined) {
      const step = /^\d+$/.test(stepText) ? Number(stepText) : NaN;
      const span = hi - lo;
      if (!(step >= 1)) problems.push(`${range.name} step '${stepText}' is not a whole number >= 1`);
      else if (step > Math.max(1, span)) problems.push(`${range.name} step /${step} is larger than the field's range (${lo}-${hi}): it would fire only at ${lo}`);
    }
  }
  return problems;
}

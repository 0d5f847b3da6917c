// --dispatches: which Intelligent Octopus Go dispatches an answer counts (issue 28), read from the
// flag's text; the modes themselves are analytics' (DispatchMode).
import { UsageError } from '../errors.js';
import { DISPATCH_CHOICES, type DispatchMode } from '../analytics/dispatchMode.js';

export function parseDispatchMode(text: string | undefined, flag = '--dispatches'): DispatchMode {
  if (text === undefined) return 'default';
  const value = text.trim().toLowerCase();
  if ((DISPATCH_CHOICES as readonly string[]).includes(value)) return value as DispatchMode;
  throw new UsageError(`${flag} must be ${DISPATCH_CHOICES.join(', ')} (default: completed where known, else planned for the future); got '${text}'`);
}

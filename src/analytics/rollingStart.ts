// Where "from now" starts: the half-hour in progress, or the next one when fewer than
// minRemainingMinutes of it are left (a job started at 16:25 that needs a whole half-hour).
import { InvalidRequest } from './requestErrors.js';
import { HALF_HOUR_MS } from '../time/index.js';

export function rollingStart(now: Date, minRemainingMinutes = 0): Date {
  if (Number.isNaN(now.getTime())) throw new InvalidRequest('now', (w) => `${w.field('now')}: not a valid instant`);
  if (!Number.isFinite(minRemainingMinutes) || minRemainingMinutes < 0 || minRemainingMinutes > 30) {
    throw new InvalidRequest('minRemaining', (w) => `${w.field('minRemaining')}: must be 0-30 minutes, got ${minRemainingMinutes}`);
  }
  const start = Math.floor(now.getTime() / HALF_HOUR_MS) * HALF_HOUR_MS;
  const remainingMs = start + HALF_HOUR_MS - now.getTime();
  return new Date(remainingMs < minRemainingMinutes * 60_000 ? start + HALF_HOUR_MS : start);
}

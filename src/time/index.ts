// Public API of src/time: pure Europe/London time functions (UK clock-change rule, half-hour slots).
export { clockChanges } from './clockChanges.js';
export { formatLocal, formatUtc } from './format.js';
export { InvalidTimeError } from './InvalidTimeError.js';
export { addLocalDays, localDatesBetween } from './localDates.js';
export {
  HALF_HOUR_MS,
  LONDON_TIME_ZONE,
  localDateOf,
  localDayBounds,
  localMinutesOfDay,
  settlementPeriod,
  slotsInLocalDay,
  utcOffsetMinutes,
} from './london.js';
export { isInLocalTimeBand, parseLocalTimeBand, type LocalTimeBand } from './parseLocalTimeBand.js';
export { parseUserDate, parseUserDateTime } from './parseUserDateTime.js';

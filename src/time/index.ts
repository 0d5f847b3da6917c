// Public API of src/time: Europe/London time functions (offsets from the tz database, half-hour slots).
export { describeInstant, describeOrder, describeWindow } from './describeInstant.js';
export { formatLocal, formatUtc } from './format.js';
export { InvalidTimeError } from './InvalidTimeError.js';
export { addLocalDays, localDatesBetween } from './localDates.js';
export {
  HALF_HOUR_MS,
  LONDON_TIME_ZONE,
  clockChanges,
  instantsOfLondonWall,
  localDateOf,
  localDayBounds,
  localMinutesOfDay,
  londonOffsetMs,
  settlementPeriod,
  slotsInLocalDay,
  utcOffsetMinutes,
} from './london.js';
export { isInLocalTimeBand, parseLocalTimeBand, type LocalTimeBand } from './parseLocalTimeBand.js';
export { parseUserDate, parseUserDateTime } from './parseUserDateTime.js';

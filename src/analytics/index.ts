// Public API of src/analytics: the questions asked of half-hourly prices, each answered by running
// a view or macro of sql/ with bound parameters. The CLI, exports and the demo call these.
export { cheapestSlots, type CheapestSlotsRequest, type SlotRow } from './cheapestSlots.js';
export { cheapestWindows, type CheapestWindowsRequest, type LengthMode, type WindowRow } from './cheapestWindows.js';
export { dailyStats, type DailyStatsRequest, type DailyStatsRow } from './dailyStats.js';
export { gaps, type GapRow, type GapsRequest } from './gaps.js';
export { localDaysIn } from './localDays.js';
export { monthlyStats, type MonthlyStatsRequest, type MonthlyStatsRow } from './monthlyStats.js';
export { negativeRuns, type NegativeRunRow, type NegativeRunsRequest } from './negativeRuns.js';
export { negativeSlots, type NegativeSlotRow, type NegativeSlotsRequest } from './negativeSlots.js';
export type { Range } from './range.js';
export { regionComparison, type RegionComparisonRequest, type RegionComparisonRow } from './regionComparison.js';
export { requireData } from './requireData.js';
export {
  costs, lastCompleteMonths, netCosts, tariffComparison,
  type ComparisonRequest, type CostPeriod, type CostRequest, type NetRequest, type PaymentMethod,
} from './costs.js';
export { portfolioCosts, type PortfolioAnswer, type PortfolioQuestion, type PortfolioRequest } from './portfolioCosts.js';
export { checkWindow, type BlockCheck, type CheckRequest, type CheckResult, type CheckedWindow } from './checkWindow.js';
export { checkSlots, type CheckSlotsRequest, type CheckSlotsResult } from './checkSlots.js';
export { selectionBlocks, type BlockRow, type BlockState, type SelectionSummary } from './selectionBlocks.js';
export { relationSql, slotWeights, type SlotWeights } from './slotWeights.js';
export { rangeCoverage, seriesKey, type CoverageRow } from './rangeCoverage.js';
export { rollingStart } from './rollingStart.js';
export { describeDispatchMode, meterOnIog, type DispatchMode } from './dispatchMode.js';
export { offPeakPeriods, type OffPeakPeriodRow, type OffPeakPeriodsRequest } from './offPeakPeriods.js';
export { HORIZONS, compareAhead, compareAheadCall, compareAheadStatement, metersReadBy, readingsEnd, type AheadRequest, type Horizon } from './compareAhead.js';
export { backtestAhead, eveOf, type BacktestRequest, type BacktestRow } from './backtestAhead.js';
export { InvalidRequest, MissingData, REQUEST_WORDS, isWorded, type Advice, type RequestField, type Wording, type Words } from './requestErrors.js';

export { strongTagOf } from './entity-tag.js';
export { type Defer, type FanOutPacing, type FanOutStream, LiveFanOut, snapshotKey } from './live-fan-out.js';
export {
  type LiveMenuRead,
  type LiveMenuRefusal,
  type LiveScheduler,
  LiveStats,
  type LiveStatsSettings,
  type LiveSubscriber,
  realTimers,
} from './live-stats.js';
export {
  availabilityFieldsOf,
  dishSummaryDataOf,
  distributionDataOf,
  mealDataOf,
  publicMealDataOf,
  upcomingDataOf,
} from './meal-data.js';
export {
  type MenuAnswer,
  MenuAnswers,
  type MenuCacheSettings,
  noMenuCache,
  personalizedBody,
} from './menu-answers.js';
export { type ReadResult, SingleFlightCache, type SingleFlightSettings } from './single-flight-cache.js';
export { jsonAnswer, notFound, type V2Answer, V2Answers, type V2CacheSettings, type V2Paging } from './v2-answers.js';
export { auditCsvChunks, auditCsvFields } from './reports/audit-csv.js';
export { ratingsCsvChunks, ratingsCsvFields } from './reports/ratings-csv.js';

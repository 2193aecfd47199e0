export { strongTagOf } from './entity-tag.js';
export { type ReadResult, SingleFlightCache, type SingleFlightSettings } from './single-flight-cache.js';

// Reads OpenMensa v2 menu feeds (XML) into the domain's menu days.
export { decodeFeed } from './decode-feed.js';
export { describeProblem, OpenMensaFeedError, type FeedProblem } from './feed-error.js';
export { openMensaNamespace } from './openmensa-schema.js';
export {
  maxMealsPerDay,
  maxMealsPerFeed,
  readOpenMensaFeed,
  type OpenMensaCanteen,
  type OpenMensaFeed,
} from './read-openmensa-feed.js';
export { maxElementDepth } from './xml-tree.js';
export { uncategorized, writeOpenMensaFeed, writtenFeedVersion } from './write-openmensa-feed.js';

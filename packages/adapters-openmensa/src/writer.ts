// The entry point `@canteen-meals/adapters-openmensa/writer`: writing a feed, and the errors a reading thread reports,
// without the XML parser and the character decoders, which only the thread that reads a feed loads (issue 30: a
// server's start loads this, not the whole package).
export { describeProblem, OpenMensaFeedError, type FeedProblem } from './feed-error.js';
export { openMensaNamespace } from './openmensa-schema.js';
export type { OpenMensaCanteen, OpenMensaFeed } from './read-openmensa-feed.js';
export { uncategorized, writeOpenMensaFeed, writtenFeedVersion } from './write-openmensa-feed.js';

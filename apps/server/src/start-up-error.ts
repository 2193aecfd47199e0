/**
 * A start that cannot go on for a reason outside the code (a taken port, a database that does not answer): its
 * message is one line that says what and what to do, printed without a stack trace.
 */
export class StartUpError extends Error {
  override readonly name = 'StartUpError';
}

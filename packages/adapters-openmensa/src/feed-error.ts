/** One thing wrong with a feed, where it is. */
export interface FeedProblem {
  /** 1-based line of the element (or of the XML error). */
  readonly line: number;
  /** The element it concerns, as `<name>`, when there is one. */
  readonly element?: string;
  readonly message: string;
}

export function describeProblem({ line, element, message }: FeedProblem): string {
  return `line ${line}${element === undefined ? '' : `, ${element}`}: ${message}`;
}

/** The feed cannot be imported: it is not well-formed XML or not a valid OpenMensa v2 feed. Nothing was imported. */
export class OpenMensaFeedError extends Error {
  override readonly name = 'OpenMensaFeedError';

  constructor(readonly problems: readonly FeedProblem[]) {
    const shown = problems.slice(0, maxProblemsShown).map((problem) => `  ${describeProblem(problem)}`);
    const more = problems.length > maxProblemsShown ? [`  ... and ${problems.length - maxProblemsShown} more`] : [];
    super(['not a valid OpenMensa v2 feed:', ...shown, ...more].join('\n'));
  }
}

const maxProblemsShown = 20;

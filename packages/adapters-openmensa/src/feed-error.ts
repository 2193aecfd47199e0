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

/**
 * The feed cannot be imported: it is not well-formed XML or not a valid OpenMensa v2 feed. Nothing was imported. Its
 * problems quote the feed's own text, cut to a bound: a 4 MB attribute must not reach the store, the API or a log line.
 */
export class OpenMensaFeedError extends Error {
  override readonly name = 'OpenMensaFeedError';
  readonly problems: readonly FeedProblem[];

  constructor(problems: readonly FeedProblem[]) {
    const bounded = problems.map(boundedProblem);
    const shown = bounded.slice(0, maxProblemsShown).map((problem) => `  ${describeProblem(problem)}`);
    const more = problems.length > maxProblemsShown ? [`  ... and ${problems.length - maxProblemsShown} more`] : [];
    super(['not a valid OpenMensa v2 feed:', ...shown, ...more].join('\n'));
    this.problems = bounded;
  }
}

/** A quoted value (an attribute, a price, a namespace) is shown up to this many characters. */
export const maxQuotedLength = 80;
/** A problem's message and element name, the quotes cut, up to this many. */
const maxMessageLength = 400;

function boundedProblem(problem: FeedProblem): FeedProblem {
  const message = cut(
    problem.message.replace(/"([^"]*)"/g, (_, quoted: string) => `"${cut(quoted, maxQuotedLength)}"`),
    maxMessageLength,
  );
  return {
    ...problem,
    message,
    ...(problem.element === undefined ? {} : { element: cut(problem.element, maxQuotedLength) }),
  };
}

/** The text, or its start and how much was left out. */
function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

const maxProblemsShown = 20;

import { canonicalPrice, type LocalDate, type MealPrices, type MenuDay, type MenuItem, type PriceRole } from '@canteen-meals/domain';
import { checkAgainstSchema } from './check-feed-schema.js';
import { decodeFeed } from './decode-feed.js';
import { OpenMensaFeedError, type FeedProblem } from './feed-error.js';
import { collapse, openMensaNamespace, openMensaType } from './openmensa-schema.js';
import { parseXmlTree, type XmlElement } from './xml-tree.js';

/** What an import takes from a feed: the canteen's name (when the feed gives it) and the days, in feed order. */
export interface OpenMensaFeed {
  readonly version: string;
  readonly canteenName: string | null;
  readonly days: readonly MenuDay[];
}

/**
 * Reads an OpenMensa v2 feed (bytes of a file, or its text). Throws an OpenMensaFeedError that lists every problem
 * with its line when the file is not well-formed XML or not a valid v2 feed, so that nothing half-valid is imported.
 * Beyond the schema, it refuses what no import could store: a day that is not in the calendar or listed twice, two
 * prices of one role for one meal (the format's documentation forbids it), a negative or infinite price, and names,
 * notes or categories that are only white space.
 */
export function readOpenMensaFeed(input: Uint8Array | string): OpenMensaFeed {
  const root = parseXmlTree(typeof input === 'string' ? input : decodeFeed(input));
  if (root.local !== 'openmensa' || root.uri !== openMensaNamespace) {
    const where = root.uri === '' ? 'without a namespace' : `in namespace "${root.uri}"`;
    throw new OpenMensaFeedError([
      {
        line: root.line,
        element: `<${root.name}>`,
        message: `the root element must be <openmensa> in namespace "${openMensaNamespace}", not <${root.local}> ${where}`,
      },
    ]);
  }
  const problems: FeedProblem[] = [];
  checkAgainstSchema(root, openMensaType, problems);
  if (problems.length > 0) throw new OpenMensaFeedError(problems);

  const feed = new FeedReader().read(root);
  if (feed.problems.length > 0) throw new OpenMensaFeedError(feed.problems);
  return feed.value;
}

/** Turns a schema-valid tree into menu days; what it refuses it collects, so one run names every problem. */
class FeedReader {
  private readonly problems: FeedProblem[] = [];

  read(root: XmlElement): { value: OpenMensaFeed; problems: FeedProblem[] } {
    const canteen = childrenOf(root, 'canteen')[0]!;
    const name = childrenOf(canteen, 'name')[0];
    const firstLineOfDay = new Map<LocalDate, number>();
    const days = childrenOf(canteen, 'day').map((day) => {
      const date = attribute(day, 'date')!;
      const first = firstLineOfDay.get(date);
      if (first !== undefined) this.report(day, `day ${date} is listed twice (first on line ${first})`);
      firstLineOfDay.set(date, day.line);
      return this.dayOf(day, date);
    });
    const canteenName = name === undefined ? null : collapse(name.text) || null;
    return { value: { version: collapse(attribute(root, 'version')!), canteenName, days }, problems: this.problems };
  }

  private dayOf(day: XmlElement, date: LocalDate): MenuDay {
    if (childrenOf(day, 'closed').length > 0) return { date, closed: true };
    const items = childrenOf(day, 'category').flatMap((category) => {
      const categoryName = this.textOf(category, attribute(category, 'name')!, 'the category name');
      return childrenOf(category, 'meal').map((meal) => this.itemOf(meal, categoryName));
    });
    return { date, closed: false, items };
  }

  private itemOf(meal: XmlElement, category: string): MenuItem {
    const nameElement = childrenOf(meal, 'name')[0]!;
    const name = this.textOf(nameElement, nameElement.text, 'the meal name');
    const notes = childrenOf(meal, 'note').map((note) => this.textOf(note, note.text, 'a note'));
    const prices: Partial<Record<PriceRole, string>> = {};
    for (const price of childrenOf(meal, 'price')) {
      const role = attribute(price, 'role') as PriceRole;
      const amount = canonicalPrice(collapse(price.text));
      if (prices[role] !== undefined) this.report(price, `a second ${role} price for "${name}"`);
      else if (amount === undefined) this.report(price, `"${collapse(price.text)}" is not a price this service can store (0 to 9999999 euros, at most 6 decimals)`);
      else prices[role] = amount;
    }
    return { category, name, notes, prices: prices as MealPrices };
  }

  /** Names, notes and categories are stored with runs of white space (line breaks of the XML) made single spaces. */
  private textOf(element: XmlElement, raw: string, what: string): string {
    const text = collapse(raw);
    if (text === '') this.report(element, `${what} is only white space`);
    return text;
  }

  private report(element: XmlElement, message: string): void {
    this.problems.push({ line: element.line, element: `<${element.name}>`, message });
  }
}

function childrenOf(element: XmlElement, local: string): XmlElement[] {
  return element.children.filter((child) => child.local === local);
}

function attribute(element: XmlElement, local: string): string | undefined {
  return element.attributes.find((candidate) => candidate.local === local && candidate.uri === '')?.value;
}

import {
  canonicalPrice,
  isBlankText,
  type LocalDate,
  type MealPrices,
  type MenuDay,
  type MenuItem,
  type PriceRole,
} from '@canteen-meals/domain';
import { checkAgainstSchema } from './check-feed-schema.js';
import { decodeFeed } from './decode-feed.js';
import { OpenMensaFeedError, type FeedProblem } from './feed-error.js';
import { collapse, openMensaNamespace, openMensaType } from './openmensa-schema.js';
import { parseXmlTree, type XmlElement } from './xml-tree.js';

/** What an import takes from a feed: the canteen's metadata (what the feed gives of it) and the days, in feed order. */
export interface OpenMensaFeed {
  readonly version: string;
  readonly canteen: OpenMensaCanteen;
  /** The same as `canteen.name`; kept for the callers written before `canteen` was read. */
  readonly canteenName: string | null;
  readonly days: readonly MenuDay[];
}

/**
 * The `<canteen>` metadata a service needs to list a canteen: each field is null when the feed leaves it out (menu
 * feeds mostly do; OpenMensa's meta feeds carry it). Texts have their white space folded like meal names. Phone,
 * e-mail, availability, opening times and the `<feed>` list are checked against the schema but not returned.
 */
export interface OpenMensaCanteen {
  readonly name: string | null;
  readonly address: string | null;
  readonly city: string | null;
  /** From `<location latitude=".." longitude=".."/>`, in decimal degrees as the feed gives them. */
  readonly coordinates: { readonly lat: number; readonly lng: number } | null;
}

/**
 * Reads an OpenMensa v2 feed (bytes of a file, or its text). Throws an OpenMensaFeedError that lists every problem
 * with its line when the file is not well-formed XML or not a valid v2 feed, so that nothing half-valid is imported.
 * Beyond the schema, it refuses what no import could store: a day that is not in the calendar or listed twice, two
 * prices of one role for one meal (the format's documentation forbids it), a negative or infinite price, names or
 * categories that are only white space, and coordinates that are no place on the globe. Notes of white space only
 * are left out.
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

/**
 * The most meals one day of a feed may list: no canteen serves more, and a feed that lists more is broken or hostile.
 */
export const maxMealsPerDay = 500;
/** The most meals one feed may list in all. */
export const maxMealsPerFeed = 10_000;

/** Turns a schema-valid tree into menu days; what it refuses it collects, so one run names every problem. */
class FeedReader {
  private readonly problems: FeedProblem[] = [];

  read(root: XmlElement): { value: OpenMensaFeed; problems: FeedProblem[] } {
    const canteen = childrenOf(root, 'canteen')[0]!;
    const metadata = canteenOf(canteen);
    const firstLineOfDay = new Map<LocalDate, number>();
    const days = childrenOf(canteen, 'day').map((day) => {
      const date = attribute(day, 'date')!;
      const first = firstLineOfDay.get(date);
      if (first !== undefined) this.report(day, `day ${date} is listed twice (first on line ${first})`);
      firstLineOfDay.set(date, day.line);
      return this.dayOf(day, date);
    });
    const total = days.reduce((sum, day) => sum + (day.closed ? 0 : day.items.length), 0);
    if (total > maxMealsPerFeed)
      this.report(canteen, `the feed lists ${total} meals; at most ${maxMealsPerFeed} are taken`);
    const version = collapse(attribute(root, 'version')!);
    return { value: { version, canteen: metadata, canteenName: metadata.name, days }, problems: this.problems };
  }

  private dayOf(day: XmlElement, date: LocalDate): MenuDay {
    if (childrenOf(day, 'closed').length > 0) return { date, closed: true };
    const items = childrenOf(day, 'category').flatMap((category) => {
      const categoryName = this.textOf(category, attribute(category, 'name')!, 'the category name');
      return childrenOf(category, 'meal').map((meal) => this.itemOf(meal, categoryName));
    });
    if (items.length > maxMealsPerDay)
      this.report(day, `day ${date} lists ${items.length} meals; at most ${maxMealsPerDay} are taken`);
    return { date, closed: false, items };
  }

  private itemOf(meal: XmlElement, category: string): MenuItem {
    const nameElement = childrenOf(meal, 'name')[0]!;
    const name = this.textOf(nameElement, nameElement.text, 'the meal name');
    // A note of white space only is valid in the schema and real parsers publish it; it says nothing, so it is left
    // out (its meal stays).
    const notes = childrenOf(meal, 'note')
      .map((note) => collapse(note.text))
      .filter((note) => note !== '');
    const prices: Partial<Record<PriceRole, string>> = {};
    for (const price of childrenOf(meal, 'price')) {
      const role = attribute(price, 'role') as PriceRole;
      const amount = canonicalPrice(collapse(price.text));
      if (prices[role] !== undefined) this.report(price, `a second ${role} price for "${name}"`);
      else if (amount === undefined)
        this.report(
          price,
          `"${collapse(price.text)}" is not a price this service can store (0 to 9999999 euros, at most 6 decimals)`,
        );
      else prices[role] = amount;
    }
    return { category, name, notes, prices: prices as MealPrices };
  }

  /**
   * Names and categories are stored with runs of white space (line breaks of the XML) made single spaces; one of
   * white space only is refused, as no meal can be stored without them.
   */
  private textOf(element: XmlElement, raw: string, what: string): string {
    const text = collapse(raw);
    // Zero-width characters alone show nothing either: an invisible meal in every menu, calendar and export.
    if (isBlankText(text)) this.report(element, `${what} is only white space or invisible characters`);
    return text;
  }

  private report(element: XmlElement, message: string): void {
    this.problems.push({ line: element.line, element: `<${element.name}>`, message });
  }
}

/** The metadata of a schema-valid `<canteen>`: its coordinates are valid numbers in range (the schema checks them). */
function canteenOf(canteen: XmlElement): OpenMensaCanteen {
  const location = childrenOf(canteen, 'location')[0];
  return {
    name: optionalText(canteen, 'name'),
    address: optionalText(canteen, 'address'),
    city: optionalText(canteen, 'city'),
    coordinates:
      location === undefined ? null : { lat: degreesOf(location, 'latitude'), lng: degreesOf(location, 'longitude') },
  };
}

function degreesOf(location: XmlElement, local: 'latitude' | 'longitude'): number {
  return Number(collapse(attribute(location, local)!));
}

/** An optional metadata text, folded like names; null when the element is missing or holds only white space. */
function optionalText(parent: XmlElement, local: string): string | null {
  const element = childrenOf(parent, local)[0];
  if (element === undefined) return null;
  const text = collapse(element.text);
  return isBlankText(text) ? null : text;
}

function childrenOf(element: XmlElement, local: string): XmlElement[] {
  return element.children.filter((child) => child.local === local);
}

function attribute(element: XmlElement, local: string): string | undefined {
  return element.attributes.find((candidate) => candidate.local === local && candidate.uri === '')?.value;
}

import { accept, refuse, type Result } from '../shared/refusal.js';
import { labelOf, unknownLabelCodes, type LabelCode } from './label.js';

/** What a reader wants left out of a menu (`without`: any of them) and what every meal must carry (`only`: all). */
export interface LabelFilter {
  readonly without: readonly LabelCode[];
  readonly only: readonly LabelCode[];
}

export const noLabelFilter: LabelFilter = Object.freeze({ without: Object.freeze([]), only: Object.freeze([]) });

/** The most codes one side of a filter may name: more than the vocabulary holds. */
export const maxFilterCodes = 64;

/** The filter of these codes, each side sorted and each code once; refused when a code is not in the vocabulary. */
export function labelFilterOf(
  without: readonly string[],
  only: readonly string[],
): Result<LabelFilter, 'unknown_label'> {
  const unknown = unknownLabelCodes([...without, ...only]);
  if (unknown.length > 0) {
    return refuse(
      'unknown_label',
      `Unknown label code${unknown.length > 1 ? 's' : ''}: ${unknown.map((code) => `"${code}"`).join(', ')}.`,
    );
  }
  if (without.length > maxFilterCodes || only.length > maxFilterCodes) {
    return refuse('unknown_label', `A filter names at most ${maxFilterCodes} codes on each side.`);
  }
  return accept({ without: [...new Set(without)].sort(), only: [...new Set(only)].sort() });
}

export function isNoLabelFilter(filter: LabelFilter): boolean {
  return filter.without.length === 0 && filter.only.length === 0;
}

/** Both filters at once: a meal passes when it passes each (a person's preferences and a read's own filter). */
export function bothFilters(a: LabelFilter, b: LabelFilter): LabelFilter {
  return {
    without: [...new Set([...a.without, ...b.without])].sort(),
    only: [...new Set([...a.only, ...b.only])].sort(),
  };
}

/**
 * Whether a meal with these labels passes: it carries none of `without` and all of `only`. A meal carries a code when
 * it has it or one of its sub-kinds (`without=gluten` leaves out `wheat`, `only=vegetarian` keeps `vegan`), whether or
 * not its labels already list their parents.
 */
export function passesLabelFilter(labels: readonly LabelCode[], filter: LabelFilter): boolean {
  if (filter.without.length === 0 && filter.only.length === 0) return true;
  const carried = new Set<LabelCode>();
  for (const code of labels) {
    carried.add(code);
    const parent = labelOf(code)?.parent;
    if (parent != null) carried.add(parent);
  }
  return !filter.without.some((code) => carried.has(code)) && filter.only.every((code) => carried.has(code));
}

/** The key of a filter in a URL-keyed cache: equal filters, equal keys. */
export function labelFilterKey(filter: LabelFilter): string {
  return `${filter.without.join(',')}|${filter.only.join(',')}`;
}

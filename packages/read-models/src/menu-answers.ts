import {
  accept,
  type Aversions,
  defaultMenuSelection,
  type DishId,
  type getMenuRefusals,
  type MealId,
  type MenuChange,
  type MenuDays,
  type MenuSelection,
  menuSelectionKey,
  noAversions,
  type PersonalState,
  type PublicMenu,
  type Result,
  readingsChangeAt,
  selects,
} from '@canteen-meals/domain';
import type { Clock, SelectedMenus } from '@canteen-meals/domain/ports';
import { strongTagOf } from './entity-tag.js';
import { publicMealDataOf } from './meal-data.js';
import { type ReadResult, SingleFlightCache } from './single-flight-cache.js';

/** How public menu answers are kept between requests. */
export interface MenuCacheSettings {
  /** How many answers (canteen and days) are kept; 0 keeps none: every answer is read and serialized afresh. */
  readonly entries: number;
  /**
   * How long a kept answer may still be served after a rating changed one of its meals or dishes, counted from when the
   * answer was read: its statistics are never older than this. 0 drops it at once.
   */
  readonly ratingsMaxAgeMs: number;
  /**
   * The longest an answer is kept at all: how late this instance shows the writes it is not told of (those of other
   * instances sharing the database, and of command-line tools).
   */
  readonly ttlMs: number;
}

/** Keeps nothing: every menu answer is exact at the instant it is read. */
export const noMenuCache: MenuCacheSettings = { entries: 0, ratingsMaxAgeMs: 0, ttlMs: 0 };

/** One public menu, serialized once, with what it takes to tell when it is out of date. */
export interface MenuAnswer {
  /** A strong validator: a hash of the body, so every instance gives the same body the same tag. */
  readonly etag: string;
  /** The whole public answer, `{status, data: {meals, unknown_ids}}`, as JSON text. */
  readonly body: string;
  /** `,"closed_days":[...]`: what follows the meals and unknown ids in both answers. */
  readonly closedDaysField: string;
  /** Each meal's public JSON object without its closing brace, in menu order: the personal fields go after it. */
  readonly mealFragments: readonly string[];
  readonly mealIds: readonly MealId[];
  /** Each meal's dish, in the same order: what a personalized answer marks as avoided. */
  readonly dishIds: readonly DishId[];
  /** The personalized answer of a reader who marked, rated and avoids none of the meals, as UTF-8 bytes. */
  readonly unmarkedBody: Buffer;
  /** Each meal as `unmarkedBody` holds it, with the comma before it but the first's, as UTF-8 bytes. */
  readonly unmarkedMeals: readonly Buffer[];
  /** Where each meal stands in `mealIds`. */
  readonly indexOfMeal: ReadonlyMap<MealId, number>;
}

type MenuRefusal = (typeof getMenuRefusals)[number];
type MenuResult = Result<MenuAnswer, MenuRefusal>;

/**
 * The public menus, serialized and kept per canteen, days and selection in the single-flight cache, so that the
 * common read costs a map lookup. A kept answer is dropped when a write announces a menu change, and at once when the
 * availability of one of its meals changes; it is served at most `ratingsMaxAgeMs` after a rating changed one of its
 * meals or dishes, never past the instant the clock alone would change it (a rating period opens or closes, a serving
 * passes), and never longer than `ttlMs`. Reads of the same menu at the same time share one database read.
 */
export class MenuAnswers implements SelectedMenus<MenuAnswer> {
  private readonly cache: SingleFlightCache<MenuResult>;

  constructor(
    private readonly read: (days: MenuDays) => Promise<Result<PublicMenu, MenuRefusal>>,
    private readonly clock: Clock,
    private readonly settings: MenuCacheSettings,
  ) {
    this.cache = new SingleFlightCache({ entries: settings.entries, touchedMaxAgeMs: settings.ratingsMaxAgeMs });
  }

  /**
   * The menu of `days` with the meals `selection` selects (by default: all but placeholders). Each selection is an
   * answer of its own, kept and dropped like any other: a filtered menu costs what an unfiltered one does.
   */
  async answer(days: MenuDays, selection: MenuSelection = defaultMenuSelection): Promise<MenuResult> {
    const now = this.clock.now().getTime();
    return this.cache.get(keyOf(days, selection), now, () => this.readAndSerialize(days, selection, now));
  }

  /**
   * The kept answer that `answer` would serve now, or undefined: without a promise, so that the common read (a 304
   * above all) answers in the handler's own turn. Undefined does not mean there is no answer: ask `answer`.
   */
  keptAnswer(days: MenuDays, selection: MenuSelection = defaultMenuSelection): MenuAnswer | undefined {
    const kept = this.cache.peek(keyOf(days, selection), this.clock.now().getTime());
    return kept?.ok ? kept.value : undefined;
  }

  /** The listener of the use cases' menu changes. */
  readonly onChange = (change: MenuChange): void => {
    if (change.kind === 'menus') return this.cache.invalidateAll();
    // Not served late like a rating: "sold out" must show at once.
    if (change.kind === 'availability') return this.cache.invalidate(`meal:${change.mealId}`);
    const items =
      change.dish === null ? [`meal:${change.mealId}`] : [`meal:${change.mealId}`, `dish:${change.dish.id}`];
    this.cache.touch(items, this.clock.now().getTime());
  };

  private async readAndSerialize(
    days: MenuDays,
    selection: MenuSelection,
    readAt: number,
  ): Promise<ReadResult<MenuResult>> {
    const menu = await this.read(days);
    if (!menu.ok) return { value: menu, keep: false };
    const meals = menu.value.meals.filter((reading) => selects(selection, reading.meal));
    const answer = serialize({ ...menu.value, meals });
    const changesAt = readingsChangeAt(meals, menu.value.asOf)?.getTime() ?? Number.POSITIVE_INFINITY;
    return {
      value: accept(answer),
      keep: true,
      expiresAt: Math.min(changesAt, readAt + this.settings.ttlMs),
      // What a rating or an availability can change in it: each meal, and each meal's dish.
      items: [...new Set(meals.flatMap((reading) => [`meal:${reading.meal.id}`, `dish:${reading.dish.id}`]))],
    };
  }
}

function serialize(menu: PublicMenu): MenuAnswer {
  const mealFragments = menu.meals.map((reading) => JSON.stringify(publicMealDataOf(reading)).slice(0, -1));
  const closedDaysField = `,"closed_days":${JSON.stringify(menu.closedDays)}`;
  const body = `{"status":"success","data":{"meals":[${mealFragments.map((fragment) => `${fragment}}`).join(',')}],"unknown_ids":[]${closedDaysField}}}`;
  const unmarkedMeals = mealFragments.map((fragment, index) =>
    Buffer.from(`${index === 0 ? '' : ','}${fragment}${unmarked}}`),
  );
  return {
    etag: strongTagOf(body),
    body,
    closedDaysField,
    mealFragments,
    mealIds: menu.meals.map((reading) => reading.meal.id),
    dishIds: menu.meals.map((reading) => reading.dish.id),
    unmarkedBody: Buffer.concat([personalHead, ...unmarkedMeals, Buffer.from(`${personalTail}${closedDaysField}}}`)]),
    unmarkedMeals,
    indexOfMeal: new Map(menu.meals.map((reading, index) => [reading.meal.id, index])),
  };
}

const unmarked = ',"marked":false,"rating_personal":null';
const personalHead = Buffer.from('{"status":"success","data":{"meals":[');
const personalTail = '],"unknown_ids":[]';

/**
 * The personalized menu, as UTF-8 bytes: each meal of the public answer with the reader's own marking and rating
 * appended, and `"avoided":true` on the servings of a dish the reader avoids (left out instead with `hide`). Built from
 * the bytes kept with the answer: a reader marks or rates a few of a menu's meals, and only theirs are serialized.
 */
export function personalizedBody(
  answer: MenuAnswer,
  states: readonly PersonalState[],
  aversions: Aversions = noAversions,
): Buffer {
  if (states.length === 0 && aversions.dishIds.size === 0) return answer.unmarkedBody;
  const meals: (Buffer | null)[] = [...answer.unmarkedMeals];
  const own = (index: number, state: PersonalState | undefined, avoided: boolean) => {
    const fragment = answer.mealFragments[index]!;
    const fields = `,"marked":${state?.marked ?? false},"rating_personal":${state?.personalRating ?? null}${avoided ? ',"avoided":true' : ''}}`;
    meals[index] = Buffer.from(`${index === 0 ? '' : ','}${fragment}${fields}`);
  };
  const statesByIndex = new Map<number, PersonalState>();
  for (const state of states) {
    const index = answer.indexOfMeal.get(state.mealId);
    if (index !== undefined) statesByIndex.set(index, state);
  }
  let hidden = false;
  if (aversions.dishIds.size > 0) {
    answer.dishIds.forEach((dishId, index) => {
      if (!aversions.dishIds.has(dishId)) return;
      if (aversions.hide) {
        meals[index] = null;
        hidden = true;
      } else own(index, statesByIndex.get(index), true);
      statesByIndex.delete(index);
    });
  }
  for (const [index, state] of statesByIndex) own(index, state, false);
  const tail = Buffer.from(`${personalTail}${answer.closedDaysField}}}`);
  if (!hidden) return Buffer.concat([personalHead, ...(meals as Buffer[]), tail]);
  // Meals left out: the commas are laid again, between those that stay.
  const kept = meals.flatMap((meal, index) => (meal === null ? [] : [index]));
  const text = kept.map((index) => {
    const piece = meals[index]!.toString();
    return index === 0 ? piece : piece.slice(1);
  });
  return Buffer.concat([personalHead, Buffer.from(text.join(',')), tail]);
}

const defaultSelectionKey = menuSelectionKey(defaultMenuSelection);

/** Where an answer of these days and selection is kept. */
function keyOf(days: MenuDays, selection: MenuSelection): string {
  const selected = selection === defaultMenuSelection ? defaultSelectionKey : menuSelectionKey(selection);
  return `${days.canteenId}\u0000${days.from}\u0000${days.to}\u0000${selected}`;
}

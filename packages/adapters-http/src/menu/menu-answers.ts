import * as crypto from 'node:crypto';
import {
  accept,
  readingsChangeAt,
  type DishId,
  type MealId,
  type MenuChange,
  type MenuDays,
  type PersonalState,
  type PublicMenu,
  type Result,
  type Aversions,
  defaultMenuSelection,
  menuSelectionKey,
  noAversions,
  selects,
  type MenuSelection,
} from '@canteen-meals/domain';
import type { Clock } from '@canteen-meals/domain/ports';
import { publicMealDataOf } from '../wire-mapping.js';

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

interface KeptAnswer extends MenuAnswer {
  /** What a rating can change in it: `meal:<id>` of each meal, `dish:<id>` of each meal's dish. */
  readonly items: readonly string[];
  readonly readAt: number;
  /** When the answer stops being exact by the clock alone, or is too old to keep: see `readingsChangeAt` and `ttlMs`. */
  readonly expiresAt: number;
  readonly epoch: number;
  /** When a rating first changed one of its meals or dishes after it was read; null: never. */
  outdatedAt: number | null;
}

interface Flight {
  readonly promise: Promise<Result<KeptAnswer, MenuRefusal>>;
  readonly epoch: number;
  outdatedAt: number | null;
  /** A serving's availability changed while it read: what it answers is neither kept nor joined. */
  superseded: boolean;
}

type MenuRefusal = 'canteen_not_found' | 'invalid_menu_range';

/**
 * The public menus, serialized and kept per canteen and days, so that the common read costs a map lookup. A kept
 * answer is dropped when a write announces a menu change, served at most `ratingsMaxAgeMs` after a rating changed it,
 * never past the instant the clock alone would change it (a rating period opens or closes, a serving passes), and
 * never longer than `ttlMs`. Reads of the same menu at the same time share one database read.
 */
export class MenuAnswers {
  private readonly kept = new Map<string, KeptAnswer>();
  /** The keys of the kept answers that show each meal and dish (see KeptAnswer.items): a rating finds them at once. */
  private readonly showing = new Map<string, Set<string>>();
  private readonly flights = new Map<string, Flight>();
  /** Counts the announced menu changes: an answer read before the last one is never kept nor served. */
  private epoch = 0;

  constructor(
    private readonly read: (days: MenuDays) => Promise<Result<PublicMenu, MenuRefusal>>,
    private readonly clock: Clock,
    private readonly settings: MenuCacheSettings,
  ) {}

  /**
   * The menu of `days` with the meals `selection` selects (by default: all but placeholders). Each selection is an
   * answer of its own, kept and dropped like any other: a filtered menu costs what an unfiltered one does.
   */
  async answer(
    days: MenuDays,
    selection: MenuSelection = defaultMenuSelection,
  ): Promise<Result<MenuAnswer, MenuRefusal>> {
    const key = keyOf(days, selection);
    const now = this.clock.now().getTime();
    const kept = this.kept.get(key);
    if (kept !== undefined && this.servable(kept, now)) return accept(kept);
    const flight = this.flights.get(key);
    if (flight !== undefined && this.joinable(flight)) return flight.promise;
    return this.readAndKeep(key, days, selection, now);
  }

  /**
   * The kept answer that `answer` would serve now, or undefined: without a promise, so that the common read (a 304
   * above all) answers in the handler's own turn. Undefined does not mean there is no answer: ask `answer`.
   */
  keptAnswer(days: MenuDays, selection: MenuSelection = defaultMenuSelection): MenuAnswer | undefined {
    const kept = this.kept.get(keyOf(days, selection));
    return kept !== undefined && this.servable(kept, this.clock.now().getTime()) ? kept : undefined;
  }

  /** The listener of the use cases' menu changes. */
  readonly onChange = (change: MenuChange): void => {
    if (change.kind === 'menus') {
      this.epoch += 1;
      this.kept.clear();
      this.showing.clear();
      return;
    }
    if (change.kind === 'availability') {
      // Not served late like a rating: "sold out" must show at once. A read under way may have read before it.
      for (const key of [...(this.showing.get(`meal:${change.mealId}`) ?? [])]) this.drop(key);
      for (const flight of this.flights.values()) flight.superseded = true;
      return;
    }
    const now = this.clock.now().getTime();
    const items = [`meal:${change.mealId}`, ...(change.dish === null ? [] : [`dish:${change.dish.id}`])];
    for (const key of items.flatMap((item) => [...(this.showing.get(item) ?? [])])) {
      const answer = this.kept.get(key);
      if (answer === undefined) continue;
      if (this.settings.ratingsMaxAgeMs === 0) this.drop(key);
      else answer.outdatedAt ??= now;
    }
    // A read under way may have read before this rating: what it answers counts as outdated from now.
    for (const flight of this.flights.values()) flight.outdatedAt ??= now;
  };

  /**
   * Whether a read under way may answer a request arriving now: it began after the last menu change, and no rating
   * came since, or ratings may be served late at all (what it reads is younger than any kept answer).
   */
  private joinable(flight: Flight): boolean {
    return (
      flight.epoch === this.epoch &&
      !flight.superseded &&
      (flight.outdatedAt === null || this.settings.ratingsMaxAgeMs > 0)
    );
  }

  private servable(answer: Pick<KeptAnswer, 'epoch' | 'readAt' | 'expiresAt' | 'outdatedAt'>, now: number): boolean {
    if (answer.epoch !== this.epoch || now >= answer.expiresAt) return false;
    return answer.outdatedAt === null || now - answer.readAt < this.settings.ratingsMaxAgeMs;
  }

  private readAndKeep(
    key: string,
    days: MenuDays,
    selection: MenuSelection,
    readAt: number,
  ): Promise<Result<KeptAnswer, MenuRefusal>> {
    const flight: Flight = {
      epoch: this.epoch,
      outdatedAt: null,
      superseded: false,
      promise: this.read(days)
        .then((menu) => {
          if (!menu.ok) return menu;
          const selected = {
            ...menu.value,
            meals: menu.value.meals.filter((reading) => selects(selection, reading.meal)),
          };
          const answer = serialize(selected, readAt, flight.epoch, this.settings.ttlMs);
          answer.outdatedAt = flight.outdatedAt;
          if (this.settings.entries > 0 && !flight.superseded && this.servable(answer, readAt)) this.keep(key, answer);
          return accept(answer);
        })
        .finally(() => {
          if (this.flights.get(key) === flight) this.flights.delete(key);
        }),
    };
    this.flights.set(key, flight);
    return flight.promise;
  }

  private keep(key: string, answer: KeptAnswer): void {
    this.drop(key);
    // Full: the answer kept longest goes (a Map iterates in insertion order).
    if (this.kept.size >= this.settings.entries) this.drop(this.kept.keys().next().value!);
    this.kept.set(key, answer);
    for (const item of answer.items) {
      let keys = this.showing.get(item);
      if (keys === undefined) this.showing.set(item, (keys = new Set()));
      keys.add(key);
    }
  }

  private drop(key: string): void {
    const answer = this.kept.get(key);
    if (answer === undefined) return;
    this.kept.delete(key);
    for (const item of answer.items) {
      const keys = this.showing.get(item);
      keys?.delete(key);
      if (keys?.size === 0) this.showing.delete(item);
    }
  }
}

function serialize(menu: PublicMenu, readAt: number, epoch: number, ttlMs: number): KeptAnswer {
  const mealFragments = menu.meals.map((reading) => JSON.stringify(publicMealDataOf(reading)).slice(0, -1));
  const closedDaysField = `,"closed_days":${JSON.stringify(menu.closedDays)}`;
  const body = `{"status":"success","data":{"meals":[${mealFragments.map((fragment) => `${fragment}}`).join(',')}],"unknown_ids":[]${closedDaysField}}}`;
  const changesAt = readingsChangeAt(menu.meals, menu.asOf)?.getTime() ?? Number.POSITIVE_INFINITY;
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
    items: [...new Set(menu.meals.flatMap((reading) => [`meal:${reading.meal.id}`, `dish:${reading.dish.id}`]))],
    readAt,
    expiresAt: Math.min(changesAt, readAt + ttlMs),
    epoch,
    outdatedAt: null,
  };
}

/** A strong entity tag of a JSON text: the same text always gets the same tag, on every instance. */
export function strongTagOf(body: string): string {
  return `"${sha1(body)}"`;
}

// crypto.hash (Node >= 20.12) hashes a short text in a third of the time of createHash, which the overlay's tag pays
// on every request.
const sha1: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha1', text, 'base64url')
    : (text) => crypto.createHash('sha1').update(text).digest('base64url');

const unmarked = ',"marked":false,"rating_personal":null';
const personalHead = Buffer.from('{"status":"success","data":{"meals":[');
const personalTail = '],"unknown_ids":[]';

/**
 * The personalized menu, as UTF-8 bytes: each meal of the public answer with the reader's own marking and rating
 * appended, and `"avoided":true` on the servings of a dish the reader avoids (left out instead with `hide`). Built from
 * the bytes kept with the answer: a reader marks or rates a few of a menu's meals, and only theirs are serialized
 * (the strings of every meal made a tenth of the personalized read, and as much again in garbage collection).
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

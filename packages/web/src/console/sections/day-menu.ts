// A day's menu: pick a canteen and a day; withdraw a meal, mark the day closed (or open again), merge dishes found by
// name into one.
import type { MealView } from '@canteen-meals/client';
import { todayIn } from '../../shared/dates.js';
import { element } from '../../shared/dom.js';
import type { AdminCanteen } from '../canteen-form.js';
import { mergeRequestOf } from '../console-requests.js';
import {
  activeCanteens,
  button,
  canteenSelect,
  confirmInPlace,
  field,
  sectionShell,
  textInput,
  whileBusy,
  type Notices,
  type SectionContext,
} from '../ui.js';

export function dayMenuSection(context: SectionContext): HTMLElement {
  const { t, client, language } = context;
  const { section, notices } = sectionShell('menu', t.dayMenu);
  const body = element('div', 'day-menu');
  section.append(body);

  void (async () => {
    let canteens: AdminCanteen[];
    try {
      canteens = await activeCanteens(client);
    } catch (error) {
      return notices.fail(error);
    }
    if (canteens.length === 0) return notices.done(t.noCanteens);
    const canteen = field('menu-canteen', t.canteen, canteenSelect(canteens));
    const day = field('menu-day', t.day, textInput('date', todayIn(canteens[0]!.timezone)));
    const show = button(t.showDay, 'primary');
    const picker = element('div', 'picker');
    picker.append(canteen.wrapper, day.wrapper, show);
    const dayState = element('div', 'day-state');
    dayState.id = 'day-state';
    const meals = element('ul', 'cards');
    meals.id = 'menu-meals';
    const merge = mergeDishes(context, () => canteen.control.value, notices);
    body.append(picker, dayState, element('h3', '', t.meals), meals, merge);

    const zoneOf = () => canteens.find((each) => each.canteen_id === canteen.control.value)?.timezone ?? 'UTC';
    /** Bumped by each load: the answer of an earlier pick that arrives late is dropped. */
    let generation = 0;
    async function load() {
      const selected = { canteen: canteen.control.value, date: day.control.value };
      if (selected.date === '') return;
      const asOf = (generation += 1);
      const menu = await client.getMeals(selected);
      if (asOf !== generation) return;
      const closed = (menu.closed_days ?? []).includes(selected.date);
      renderDayState(selected.canteen, selected.date, closed);
      const time = new Intl.DateTimeFormat(language, { timeStyle: 'short', timeZone: zoneOf() });
      meals.replaceChildren(...menu.meals.map((meal) => mealCard(meal, time)));
      if (menu.meals.length === 0) meals.append(element('li', 'empty', closed ? t.closedNoMeals : t.noMeals));
      // Which day the list shows (tests and styles read it; the list changes in place).
      meals.dataset.canteen = selected.canteen;
      meals.dataset.date = selected.date;
    }
    const reload = () => load().catch((error: unknown) => notices.fail(error));

    function renderDayState(canteenId: string, date: string, closed: boolean) {
      const state = element('p', closed ? 'state closed' : 'state open', closed ? t.dayClosed : t.dayOpen);
      const actions = element('div', 'actions');
      const toggle = button(closed ? t.markOpen : t.markClosed, closed ? '' : 'danger');
      toggle.id = 'toggle-closed';
      const setClosed = async (to: boolean) => {
        const result = await client.setDayClosed(canteenId, date, to);
        await load();
        notices.done(to ? t.closedDone(result.withdrawn_meal_ids.length) : t.openDone);
      };
      toggle.addEventListener('click', () => {
        // Closing withdraws the day's meals still to be served: asked first. Opening again changes no meal.
        if (closed) void whileBusy(toggle, notices, () => setClosed(false));
        else confirmInPlace(actions, t.confirmClose(date), t.markClosed, t, notices, () => setClosed(true));
      });
      actions.append(toggle);
      dayState.replaceChildren(state, actions);
    }

    function mealCard(meal: MealView, time: Intl.DateTimeFormat): HTMLLIElement {
      const item = element('li', 'card');
      item.dataset.mealId = String(meal.meal_id);
      item.append(element('h4', 'meal-name', meal.name));
      const detail = [meal.category, time.format(new Date(meal.served_at)), t.ratingCount(meal.rating_count)].filter(
        (part) => part !== null,
      );
      item.append(element('p', 'meta', detail.join(' · ')));
      const actions = element('div', 'actions');
      const withdraw = button(t.withdraw, 'danger');
      withdraw.setAttribute('aria-label', t.withdrawNamed(meal.name));
      withdraw.addEventListener('click', () =>
        confirmInPlace(actions, t.confirmWithdraw(meal.name), t.withdraw, t, notices, async () => {
          await client.withdrawMeal(meal.meal_id);
          await load();
          notices.done(t.withdrawn(meal.name));
        }),
      );
      actions.append(withdraw);
      item.append(actions);
      return item;
    }

    show.addEventListener(
      'click',
      () =>
        void whileBusy(show, notices, async () => {
          notices.clear();
          await load();
        }),
    );
    canteen.control.addEventListener('change', () => {
      day.control.value = todayIn(zoneOf());
      void reload();
    });
    day.control.addEventListener('change', () => void reload());
    await reload();
  })();
  return section;
}

/** Merge dishes: search a canteen's dishes by name, pick the one to keep and those to merge into it. */
function mergeDishes(context: SectionContext, canteenOf: () => string, notices: Notices): HTMLElement {
  const { t, client } = context;
  const node = element('div', 'merge');
  const form = element('form', 'search');
  form.noValidate = true;
  const query = field('dish-query', t.dishName, textInput('search'));
  const search = element('button', 'primary', t.search);
  search.type = 'submit';
  form.append(query.wrapper, search);
  const results = element('div', 'merge-results');
  results.id = 'merge-results';
  node.append(element('h3', '', t.mergeDishes), element('p', 'hint', t.mergeHint), form, results);

  async function find() {
    const q = query.control.value.trim();
    if (q === '') return query.showProblem(t.problem.required);
    query.showProblem(null);
    const { dishes } = await client.searchDishes(canteenOf(), { q, limit: 50 });
    if (dishes.length === 0) return results.replaceChildren(element('p', 'empty', t.noDishes(q)));
    const keep = element('fieldset', 'choices');
    keep.append(element('legend', '', t.mergeTarget));
    const into = element('fieldset', 'choices');
    into.append(element('legend', '', t.mergeFrom));
    for (const dish of dishes) {
      const words = `${dish.name} (${t.servedTimes(dish.times_served)}, #${dish.dish_id})`;
      keep.append(choice('radio', 'merge-target', dish.dish_id, words));
      into.append(choice('checkbox', 'merge-from', dish.dish_id, words));
    }
    const mergeButton = button(t.merge, 'primary');
    mergeButton.id = 'merge-button';
    mergeButton.addEventListener('click', () => {
      const target = results.querySelector<HTMLInputElement>('input[name="merge-target"]:checked');
      const picked = [...results.querySelectorAll<HTMLInputElement>('input[name="merge-from"]:checked')].map((box) =>
        Number(box.value),
      );
      const checked = mergeRequestOf(target === null ? undefined : Number(target.value), picked);
      if (!checked.ok) return notices.fail(t.requestProblem[checked.problem]);
      void whileBusy(mergeButton, notices, async () => {
        const merged = await client.mergeDishes(checked.value.dishId, checked.value.request);
        await find();
        notices.done(t.merged(merged.name, checked.value.request.from.length));
      });
    });
    results.replaceChildren(keep, into, mergeButton);
  }

  function choice(type: 'radio' | 'checkbox', name: string, dishId: number, words: string): HTMLElement {
    const input = element('input');
    input.type = type;
    input.name = name;
    input.value = String(dishId);
    input.id = `${name}-${dishId}`;
    const label = element('label', 'choice');
    label.htmlFor = input.id;
    label.append(input, document.createTextNode(` ${words}`));
    return label;
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void whileBusy(search, notices, find);
  });
  return node;
}

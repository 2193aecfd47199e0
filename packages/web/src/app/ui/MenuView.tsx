import {
  canteen,
  canteens,
  canteensProblem,
  day,
  filtersOpen,
  hiddenDishes,
  language,
  menuProblem,
  showHidden,
  t,
  week,
} from '../store/state.js';
import { dayLabel } from '../model/days.js';
import { byCategory, mealsOn, type MenuMeal } from '../model/menu-day.js';
import { CanteenPicker } from './CanteenPicker.js';
import { FilterPanel, FiltersButton } from './FilterPanel.js';
import { DayStrip } from './DayStrip.js';
import { MealCard } from './MealCard.js';
import { PriceGroupPicker } from './PriceGroupPicker.js';

/** The day's meals of the chosen canteen, by category; what the filter and the hidden dishes leave out, counted. */
export function MenuView() {
  const texts = t.value;
  const chosen = canteen.value;
  if (canteensProblem.value !== null)
    return (
      <p class="problem" role="alert">
        {texts.menuUnavailable(canteensProblem.value)}
      </p>
    );
  if (canteens.value === null) return <p class="loading">{texts.loading}</p>;
  if (chosen === null) return <p>{texts.noCanteens}</p>;
  const label = dayLabel(day.value, language.value);
  return (
    <>
      <h1 class="view-heading">
        {chosen.name}
        <span class="subheading">{label.full}</span>
      </h1>
      <div class="toolbar">
        <CanteenPicker />
        <PriceGroupPicker />
        <FiltersButton />
      </div>
      {filtersOpen.value && <FilterPanel />}
      <DayStrip />
      <DayMeals timeZone={chosen.timezone} />
    </>
  );
}

function DayMeals({ timeZone }: { readonly timeZone: string }) {
  const texts = t.value;
  const loaded = week.value;
  if (loaded === null) {
    return menuProblem.value === null ? (
      <p class="loading">{texts.loading}</p>
    ) : (
      <p class="problem" role="alert">
        {texts.menuUnavailable(menuProblem.value)}
      </p>
    );
  }
  if (loaded.closedDays.includes(day.value)) return <p class="closed-day">{texts.closedDay}</p>;
  const passing = mealsOn(loaded.shown, day.value, timeZone);
  const every = loaded.all === null ? passing : mealsOn(loaded.all, day.value, timeZone);
  const passingIds = new Set(passing.map((meal) => meal.meal_id));
  const isHidden = (meal: MenuMeal) => !passingIds.has(meal.meal_id) || hiddenDishes.value.has(meal.dish_id);
  const hiddenCount = every.filter(isHidden).length;
  const shown = showHidden.value ? every : every.filter((meal) => !isHidden(meal));
  return (
    <>
      {hiddenCount > 0 && (
        <p class="hidden-count">
          {texts.hiddenMeals(hiddenCount)}{' '}
          <button
            type="button"
            class="link"
            aria-pressed={showHidden.value}
            onClick={() => (showHidden.value = !showHidden.value)}
          >
            {showHidden.value ? texts.hideHidden : texts.showHidden}
          </button>
        </p>
      )}
      {every.length === 0 && <p class="no-meals">{texts.noMeals}</p>}
      {byCategory(shown).map((category, index) => (
        <section class="category" key={category.name ?? ''} aria-labelledby={`category-${index}`}>
          <h2 id={`category-${index}`}>{category.name ?? texts.uncategorised}</h2>
          {category.meals.map((meal) => (
            <MealCard key={meal.meal_id} meal={meal} hiddenByFilter={isHidden(meal)} />
          ))}
        </section>
      ))}
    </>
  );
}

import { useState } from 'preact/hooks';
import { numberFormat } from '../../shared/formatters.js';
import { closedReason, type MenuMeal } from '../model/menu-day.js';
import { priceFor } from '../model/prices.js';
import { isWaiting, hideDish, mark, rate } from '../store/personal.js';
import { labels, language, liveFigures, now, personal, priceGroup, session, t, topPlaces } from '../store/state.js';
import { Stars } from './Stars.js';

export interface MealCardProps {
  readonly meal: MenuMeal;
  /** Shown although the filter leaves it out (the person asked to see what it hides). */
  readonly hiddenByFilter?: boolean;
}

const oneDecimal = (value: number, language: string) =>
  numberFormat(language, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);

/**
 * One meal: an article named by its heading, with its price, labels, availability, figures and the person's controls.
 */
export function MealCard({ meal, hiddenByFilter = false }: MealCardProps) {
  const texts = t.value;
  const lang = language.value;
  const figures = { ...meal, ...liveFigures.value.get(meal.meal_id) };
  const mine = personal.value.get(meal.meal_id);
  const place = topPlaces.value.get(meal.meal_id);
  const price = priceFor(meal.prices, priceGroup.value, lang);
  const names = new Map(labels.value.map((label) => [label.code, label.name[lang]]));
  const shownLabels = meal.labels.filter((code) => names.has(code));
  const [medianShown, setMedianShown] = useState(false);
  const heading = `meal-${meal.meal_id}`;
  return (
    <article class="meal" aria-labelledby={heading} data-meal={meal.meal_id}>
      <div class="meal-head">
        <h3 id={heading}>{meal.name}</h3>
        {place !== undefined && <span class="badge top">{texts.top(place)}</span>}
      </div>
      <p class="price">{price ?? texts.noPrice}</p>
      {figures.availability !== 'available' && (
        <p class="availability" data-status={figures.availability}>
          {figures.availability === 'sold_out' ? texts.soldOut : texts.fewLeft}
        </p>
      )}
      {shownLabels.length > 0 && (
        <ul class="labels" aria-label={texts.labelsOfMeal}>
          {shownLabels.map((code) => (
            <li key={code}>{names.get(code)}</li>
          ))}
        </ul>
      )}
      <div class="figures">
        <p class="summary">
          {figures.rating_count === 0 || figures.rating_average === null
            ? texts.noRatings
            : texts.ratingSummary(oneDecimal(figures.rating_average, lang), figures.rating_count)}
        </p>
        {figures.rating_median !== null && figures.rating_count > 0 && (
          <button
            type="button"
            class="quiet small"
            aria-expanded={medianShown}
            onClick={() => setMedianShown(!medianShown)}
          >
            {texts.showMedian}
          </button>
        )}
        {medianShown && figures.rating_median !== null && (
          <p class="median">{texts.median(oneDecimal(figures.rating_median, lang))}</p>
        )}
      </div>
      {hiddenByFilter && <p class="hidden-note">{texts.hiddenByFilters}</p>}
      {session.value === null ? (
        <p class="hint">{texts.signInToRate}</p>
      ) : (
        <div class="mine">
          {meal.rating_open ? (
            <Stars mealId={meal.meal_id} rating={mine?.rating ?? null} onRate={(rating) => void rate(meal, rating)} />
          ) : (
            <p class="hint">
              {
                { not_yet: texts.ratingNotYet, over: texts.ratingOver, not_rateable: texts.ratingNotRateable }[
                  closedReason(meal, now.value)
                ]
              }
            </p>
          )}
          <div class="actions">
            <button
              type="button"
              class="favourite"
              aria-pressed={mine?.marked ?? false}
              onClick={() => void mark(meal, !(mine?.marked ?? false))}
            >
              <span aria-hidden="true" class="heart" />
              {texts.favourite}
            </button>
            <button
              type="button"
              class="quiet"
              onClick={() => void hideDish({ dish_id: meal.dish_id, name: meal.dish.name })}
            >
              {texts.hideDish}
            </button>
          </div>
          {isWaiting(meal.meal_id) && <p class="waiting">{texts.waiting}</p>}
        </div>
      )}
    </article>
  );
}

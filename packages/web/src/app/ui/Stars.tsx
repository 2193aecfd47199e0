import { t } from '../store/state.js';

export interface StarsProps {
  readonly mealId: number;
  readonly rating: number | null;
  readonly onRate: (rating: number | null) => void;
}

/**
 * "Your rating": five radios ("1 star" … "5 stars") in a radio group, native, so the arrow keys move between them and
 * choose; the stars are their drawing. "Remove my rating" deletes the rating.
 */
export function Stars({ mealId, rating, onRate }: StarsProps) {
  const texts = t.value;
  const legend = `rating-${mealId}-legend`;
  return (
    <div class="rating-control">
      <fieldset class="stars" role="radiogroup" aria-labelledby={legend}>
        <legend id={legend}>{texts.yourRating}</legend>
        {[1, 2, 3, 4, 5].map((stars) => (
          <label class="star" key={stars} data-on={rating !== null && stars <= rating ? '' : undefined}>
            <input
              type="radio"
              name={`rating-${mealId}`}
              value={stars}
              checked={rating === stars}
              onChange={() => onRate(stars)}
            />
            <span class="visually-hidden">{texts.stars(stars)}</span>
          </label>
        ))}
      </fieldset>
      {rating !== null && (
        <button type="button" class="quiet" onClick={() => onRate(null)}>
          {texts.removeRating}
        </button>
      )}
    </div>
  );
}

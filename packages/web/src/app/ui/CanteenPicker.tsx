import { useState } from 'preact/hooks';
import { hrefFor, navigate } from '../store/navigation.js';
import { canteen, canteens, t } from '../store/state.js';

/** Above this many canteens, a search field narrows the list. */
export const searchFrom = 9;

/** Which canteen: every canteen of the API, by name; a search field when there are many. */
export function CanteenPicker() {
  const texts = t.value;
  const list = canteens.value ?? [];
  const chosen = canteen.value;
  const [query, setQuery] = useState('');
  const wanted = query.trim().toLocaleLowerCase();
  const matching =
    wanted === ''
      ? list
      : list.filter((entry) => `${entry.name} ${entry.city ?? ''}`.toLocaleLowerCase().includes(wanted));
  // The chosen canteen stays in the list, so the field always shows what is chosen.
  const options = chosen !== null && !matching.includes(chosen) ? [chosen, ...matching] : matching;
  return (
    <div class="canteen-picker">
      {list.length >= searchFrom && (
        <div class="field">
          <label for="canteen-search">{texts.searchCanteens}</label>
          <input
            id="canteen-search"
            type="search"
            value={query}
            onInput={(event) => setQuery(event.currentTarget.value)}
            autocomplete="off"
          />
          {matching.length === 0 && (
            <p class="hint" role="status">
              {texts.noCanteenFound}
            </p>
          )}
        </div>
      )}
      <div class="field">
        <label for="canteen">{texts.canteen}</label>
        <select
          id="canteen"
          value={chosen?.canteen_id ?? ''}
          onChange={(event) => navigate(hrefFor({ canteen: event.currentTarget.value }))}
        >
          {options.map((entry) => (
            <option key={entry.canteen_id} value={entry.canteen_id}>
              {entry.city === null ? entry.name : `${entry.name} (${entry.city})`}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

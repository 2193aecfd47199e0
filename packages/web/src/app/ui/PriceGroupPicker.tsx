import { keep } from '../store/storage.js';
import { priceGroup, t } from '../store/state.js';
import { isPriceGroup, priceGroups } from '../model/prices.js';

/** Whose prices the menu shows (students by default), remembered in this browser. */
export function PriceGroupPicker() {
  const texts = t.value;
  return (
    <div class="field">
      <label for="price-group">{texts.priceGroup}</label>
      <select
        id="price-group"
        value={priceGroup.value}
        onChange={(event) => {
          const chosen = event.currentTarget.value;
          if (!isPriceGroup(chosen)) return;
          priceGroup.value = chosen;
          keep('price-group', chosen);
        }}
      >
        {priceGroups.map((group) => (
          <option key={group} value={group}>
            {texts.priceGroups[group]}
          </option>
        ))}
      </select>
    </div>
  );
}

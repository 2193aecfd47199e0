import type { Label } from '@canteen-meals/client';
import { setFilters } from '../store/personal.js';
import { filters, filtersOpen, labels, language, t } from '../store/state.js';
import { filterCount, filterGroups, noFilters, toggled, type Filters, type LabelGroup } from '../model/filters.js';

/** The "Filters" button: opens and closes the panel, and says how many codes are set. */
export function FiltersButton() {
  const texts = t.value;
  const count = filterCount(filters.value);
  return (
    <button
      type="button"
      class="filters-button"
      aria-expanded={filtersOpen.value}
      aria-controls="filter-panel"
      onClick={() => (filtersOpen.value = !filtersOpen.value)}
    >
      {count === 0 ? texts.filters : texts.filtersActive(count)}
    </button>
  );
}

function Choice({ label, part }: { readonly label: Label; readonly part: keyof Filters }) {
  const id = `filter-${part}-${label.code}`;
  const checked = filters.value[part].includes(label.code);
  return (
    <>
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => setFilters(toggled(filters.value, part, label.code, event.currentTarget.checked))}
      />
      <label for={id}>{label.name[language.value]}</label>
    </>
  );
}

function Choices({ groups, part }: { readonly groups: readonly LabelGroup[]; readonly part: keyof Filters }) {
  return (
    <ul class="choices">
      {groups.map(({ label, children }) => (
        <li key={label.code}>
          <Choice label={label} part={part} />
          {children.length > 0 && (
            <ul class="choices sub">
              {children.map((child) => (
                <li key={child.code}>
                  <Choice label={child} part={part} />
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ul>
  );
}

/** "Leave out" (allergens, additives, ingredients) and "Only" (diets): applied as without= and only= on the menu. */
export function FilterPanel() {
  const texts = t.value;
  const groups = filterGroups(labels.value);
  return (
    <section id="filter-panel" class="filter-panel" aria-label={texts.filters}>
      <fieldset>
        <legend>{texts.leaveOut}</legend>
        <Choices groups={groups.leaveOut} part="without" />
      </fieldset>
      <fieldset>
        <legend>{texts.only}</legend>
        <Choices groups={groups.only} part="only" />
      </fieldset>
      <div class="panel-actions">
        <button
          type="button"
          class="quiet"
          onClick={() => setFilters(noFilters)}
          disabled={filterCount(filters.value) === 0}
        >
          {texts.clearFilters}
        </button>
        <button type="button" onClick={() => (filtersOpen.value = false)}>
          {texts.closeFilters}
        </button>
      </div>
    </section>
  );
}

import { labelVocabulary, maxAversionsPerPerson, maxFilterCodes } from '@canteen-meals/domain';
import { Type, type Static } from '@sinclair/typebox';

/** A code of the label vocabulary (GET /api/v1/labels). */
export const LabelCode = Type.String({
  pattern: '^[a-z]+(_[a-z]+)*$',
  description: 'A label code of GET /api/v1/labels, e.g. "gluten", "vegan", "flavour_enhancer"',
});

/** What every JSON meal answer carries: the meal's codes with their parents, sorted. */
export const MealLabels = Type.Array(LabelCode, {
  description: 'The meal\'s label codes with their parents ("wheat" brings "gluten"), sorted; see GET /api/v1/labels',
});

export const LabelData = Type.Object({
  code: LabelCode,
  kind: Type.Union(
    [
      Type.Literal('allergen'),
      Type.Literal('additive'),
      Type.Literal('diet'),
      Type.Literal('ingredient'),
      Type.Literal('menu'),
    ],
    {
      description:
        'allergen: EU 1169/2011 Annex II; additive: declared in German menus; diet; ingredient; menu: placeholder',
    },
  ),
  parent: Type.Union([LabelCode, Type.Null()], { description: 'The label this one implies; null when none' }),
  name: Type.Object({ de: Type.String(), en: Type.String() }),
});
export type LabelData = Static<typeof LabelData>;

export const LabelsData = Type.Object({ labels: Type.Array(LabelData) });
export type LabelsData = Static<typeof LabelsData>;

const codeListText = `[a-z]+(_[a-z]+)*`;

/** `without=` and `only=` of every menu read: comma-separated label codes. */
export const LabelFilterQuery = {
  without: Type.Optional(
    Type.String({
      pattern: `^${codeListText}(,${codeListText}){0,${maxFilterCodes - 1}}$`,
      description:
        'Comma-separated label codes: leaves out meals that carry any of them (a parent covers its sub-kinds: without=gluten leaves out wheat)',
    }),
  ),
  only: Type.Optional(
    Type.String({
      pattern: `^${codeListText}(,${codeListText}){0,${maxFilterCodes - 1}}$`,
      description:
        'Comma-separated label codes: keeps only meals that carry all of them (only=vegetarian keeps vegan meals)',
    }),
  ),
};

/** `?all=true` of a personalized read: the person's preferences are not applied. */
export const AllQuery = {
  all: Type.Optional(
    Type.Union([Type.Literal('true'), Type.Literal('false')], { description: "true: ignore the caller's preferences" }),
  ),
};

/** `?hide=avoided` of a personalized read: servings of dishes the caller avoids are left out. */
export const HideQuery = {
  hide: Type.Optional(
    Type.Literal('avoided', { description: 'avoided: leave out the servings of dishes the caller avoids' }),
  ),
};

/** `?placeholders=true` of a JSON menu: the feed's placeholder entries ("Kein Angebot") are answered too. */
export const PlaceholdersQuery = {
  placeholders: Type.Optional(
    Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'true: answer placeholder entries too' }),
  ),
};

export const PreferencesBody = Type.Object(
  {
    without: Type.Array(LabelCode, {
      maxItems: maxFilterCodes,
      description: 'Leave out meals that carry any of these',
    }),
    only: Type.Array(LabelCode, { maxItems: maxFilterCodes, description: 'Keep only meals that carry all of these' }),
  },
  { additionalProperties: false, examples: [{ without: ['mustard', 'sesame'], only: ['vegetarian'] }] },
);
export type PreferencesBody = Static<typeof PreferencesBody>;

export const PreferencesData = Type.Object({ without: Type.Array(LabelCode), only: Type.Array(LabelCode) });
export type PreferencesData = Static<typeof PreferencesData>;

export const AversionParams = Type.Object(
  { dish_id: Type.String({ pattern: '^[1-9][0-9]{0,15}$', description: 'Dish id' }) },
  { additionalProperties: false },
);
export type AversionParams = Static<typeof AversionParams>;

export const AversionData = Type.Object({ dish_id: Type.Integer({ minimum: 1 }), avoided: Type.Boolean() });
export type AversionData = Static<typeof AversionData>;

export const AversionsQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.String({
        pattern: `^([1-9][0-9]{0,1}|[1-4][0-9]{2}|${maxAversionsPerPerson})$`,
        description: `Aversions per page, 1 to ${maxAversionsPerPerson}; all of them (at most ${maxAversionsPerPerson}) when absent`,
      }),
    ),
    cursor: Type.Optional(
      Type.String({ description: 'The next_cursor of the previous page (opaque, for this list and caller only)' }),
    ),
  },
  { additionalProperties: false },
);
export type AversionsQuery = Static<typeof AversionsQuery>;

export const AversionsData = Type.Object({
  aversions: Type.Array(
    Type.Object({ dish_id: Type.Integer({ minimum: 1 }), since: Type.String({ format: 'date-time' }) }),
    {
      description: 'The dishes the caller avoids, by dish id, each since it was first avoided',
    },
  ),
  next_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'The cursor of the next page; null on the last',
  }),
});
export type AversionsData = Static<typeof AversionsData>;

/** The legend as GET /labels answers it, built once: the vocabulary does not change while the server runs. */
export const labelsLegend: LabelsData = {
  labels: labelVocabulary.map(({ code, kind, parent, name }) => ({
    code,
    kind,
    parent,
    name: { de: name.de, en: name.en },
  })),
};

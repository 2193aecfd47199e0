import type { Canteen } from '../canteen/canteen.js';
import type { Meal } from '../meal/meal.js';
import { withParents } from './label.js';
import { NoteLabels } from './note-labels.js';
import { PlaceholderNames, placeholderLabel } from './placeholder.js';

/**
 * How one canteen's meals get their labels when they are written: the codes the writer gave, those its notes name
 * (the built-in spellings and the canteen's `note_labels`), and `placeholder` for an entry whose name only says there
 * is nothing (then it is not rateable either). Notes stay as they are.
 */
export class MealLabelling {
  private readonly notes: NoteLabels;
  private readonly placeholders: PlaceholderNames;

  constructor(canteen: Pick<Canteen, 'noteLabels' | 'placeholderNames'>) {
    this.notes = new NoteLabels(canteen.noteLabels ?? {});
    this.placeholders = new PlaceholderNames(canteen.placeholderNames ?? []);
  }

  labelled<M extends Omit<Meal, 'id'>>(meal: M): M {
    const placeholder = this.placeholders.isPlaceholder(meal.name);
    const labels = withParents([
      ...(meal.labels ?? []),
      ...this.notes.labelsOf(meal.notes ?? []),
      ...(placeholder ? [placeholderLabel] : []),
    ]);
    return { ...meal, labels, rateable: meal.rateable && !placeholder };
  }
}

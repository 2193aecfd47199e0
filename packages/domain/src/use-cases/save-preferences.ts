import { labelFilterOf, type LabelFilter } from '../label/label-filter.js';
import type { PreferenceRepository } from '../preference/preference-repository.js';
import type { Result } from '../shared/refusal.js';
import type { UserId } from '../shared/user-id.js';

export const savePreferencesRefusals = ['unknown_label'] as const;

/** PUT /me/preferences: what the person's menus leave out and keep, checked against the vocabulary, then stored. */
export class SavePreferences {
  constructor(private readonly deps: { readonly preferences: PreferenceRepository }) {}

  async execute(command: {
    readonly userId: UserId;
    readonly without: readonly string[];
    readonly only: readonly string[];
  }): Promise<Result<LabelFilter, 'unknown_label'>> {
    const filter = labelFilterOf(command.without, command.only);
    if (!filter.ok) return filter;
    await this.deps.preferences.saveFilter(command.userId, filter.value);
    return filter;
  }
}

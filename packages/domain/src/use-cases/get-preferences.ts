import type { PersonPreferences, PreferenceRepository } from '../preference/preference-repository.js';
import type { UserId } from '../shared/user-id.js';

/** The person's preferences: what GET /me/preferences answers and every personalized read applies. */
export class GetPreferences {
  constructor(private readonly deps: { readonly preferences: PreferenceRepository }) {}

  execute({ userId }: { readonly userId: UserId }): Promise<PersonPreferences> {
    return this.deps.preferences.preferencesOf(userId);
  }
}

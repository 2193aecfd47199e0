import { noLabelFilter } from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';
import { freshFixturePerTest, type CreateRepositoryFixture } from './repository-fixture.js';
import { readAt } from './sample-meals.js';

const later = new Date(readAt.getTime() + 60_000);

/** What every PreferenceRepository adapter must do: label filters and aversions per person, exported and erased. */
export function describePreferenceRepositoryContract(
  adapterName: string,
  createFixture: CreateRepositoryFixture,
): void {
  describe(`PreferenceRepository contract: ${adapterName}`, () => {
    const store = freshFixturePerTest(createFixture);

    it('answers no filter and no aversion for a person who stored none', async () => {
      expect(await store().preferences.preferencesOf('alice')).toEqual({ filter: noLabelFilter, aversions: [] });
    });

    it('stores a filter per person, replaces it, and an empty one removes it', async () => {
      const { preferences } = store();
      await preferences.saveFilter('alice', { without: ['mustard', 'sesame'], only: ['vegetarian'] });
      await preferences.saveFilter('bob', { without: ['gluten'], only: [] });
      expect((await preferences.preferencesOf('alice')).filter).toEqual({
        without: ['mustard', 'sesame'],
        only: ['vegetarian'],
      });
      await preferences.saveFilter('alice', { without: [], only: ['vegan'] });
      expect((await preferences.preferencesOf('alice')).filter).toEqual({ without: [], only: ['vegan'] });
      await preferences.saveFilter('alice', noLabelFilter);
      expect((await preferences.preferencesOf('alice')).filter).toEqual(noLabelFilter);
      expect((await preferences.preferencesOf('bob')).filter).toEqual({ without: ['gluten'], only: [] });
    });

    it('keeps the first instant of an aversion, answers them by dish id, and forgets one on request', async () => {
      const { preferences } = store();
      await preferences.avoid('alice', 9, readAt);
      await preferences.avoid('alice', 3, readAt);
      await preferences.avoid('alice', 9, later);
      expect((await preferences.preferencesOf('alice')).aversions).toEqual([
        { dishId: 3, since: readAt },
        { dishId: 9, since: readAt },
      ]);
      expect(await preferences.stopAvoiding('alice', 9)).toBe(true);
      expect(await preferences.stopAvoiding('alice', 9)).toBe(false);
      expect((await preferences.preferencesOf('alice')).aversions).toEqual([{ dishId: 3, since: readAt }]);
      expect((await preferences.preferencesOf('bob')).aversions).toEqual([]);
    });

    it('answers the preferences of many people at once, as each alone, with none for who stored nothing', async () => {
      const { preferences } = store();
      await preferences.saveFilter('alice', { without: ['fish'], only: [] });
      await preferences.avoid('alice', 7, readAt);
      await preferences.avoid('alice', 2, later);
      await preferences.avoid('bob', 4, readAt);
      await preferences.saveFilter('carol', { without: [], only: ['vegan'] });
      const many = await preferences.preferencesOfUsers(['alice', 'bob', 'dave', 'alice']);
      expect([...many.keys()].sort()).toEqual(['alice', 'bob', 'dave']);
      for (const userId of ['alice', 'bob', 'dave']) {
        expect(many.get(userId)).toEqual(await preferences.preferencesOf(userId));
      }
      expect(many.get('alice')).toEqual({
        filter: { without: ['fish'], only: [] },
        aversions: [
          { dishId: 2, since: later },
          { dishId: 7, since: readAt },
        ],
      });
      expect(many.get('dave')).toEqual({ filter: noLabelFilter, aversions: [] });
      expect((await preferences.preferencesOfUsers([])).size).toBe(0);
    });

    it("erases one person's filter and aversions, counting them, and nobody else's; again it erases nothing", async () => {
      const { preferences } = store();
      await preferences.saveFilter('alice', { without: ['fish'], only: [] });
      await preferences.avoid('alice', 1, readAt);
      await preferences.avoid('alice', 2, readAt);
      await preferences.saveFilter('bob', { without: ['milk'], only: [] });
      await preferences.avoid('bob', 1, readAt);
      expect(await preferences.eraseAll('alice')).toEqual({ filters: 1, aversions: 2 });
      expect(await preferences.preferencesOf('alice')).toEqual({ filter: noLabelFilter, aversions: [] });
      expect(await preferences.eraseAll('alice')).toEqual({ filters: 0, aversions: 0 });
      expect(await preferences.preferencesOf('bob')).toEqual({
        filter: { without: ['milk'], only: [] },
        aversions: [{ dishId: 1, since: readAt }],
      });
    });
  });
}

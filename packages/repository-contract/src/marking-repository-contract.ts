import { describe, expect, it } from 'vitest';
import { probeThrough } from './repository-probe.js';
import { freshFixturePerTest, type CreateRepositoryFixture } from './repository-fixture.js';
import { sampleMeal } from './sample-meals.js';

/** What every MarkingRepository adapter must do, whatever stores the markings. */
export function describeMarkingRepositoryContract(adapterName: string, createFixture: CreateRepositoryFixture): void {
  describe(`MarkingRepository contract: ${adapterName}`, () => {
    const store = freshFixturePerTest(createFixture);
    const probe = probeThrough(() => store().queries);
    const withMeals = async () => {
      const fixture = store();
      await fixture.meals.upsertMany([sampleMeal(1), sampleMeal(2)]);
      return fixture.markings;
    };

    it('starts unmarked', async () => {
      await withMeals();
      expect(await probe.marked('alice', 1)).toBe(false);
    });

    it('marks and unmarks', async () => {
      const markings = await withMeals();
      await markings.setMarked('alice', 1, true);
      expect(await probe.marked('alice', 1)).toBe(true);
      await markings.setMarked('alice', 1, false);
      expect(await probe.marked('alice', 1)).toBe(false);
    });

    it('marking a marked meal succeeds and changes nothing', async () => {
      const markings = await withMeals();
      await markings.setMarked('alice', 1, true);
      await expect(markings.setMarked('alice', 1, true)).resolves.toBe(true);
      expect(await probe.marked('alice', 1)).toBe(true);
      // One unmark undoes any number of marks: the repeats stored nothing extra.
      await markings.setMarked('alice', 1, false);
      expect(await probe.marked('alice', 1)).toBe(false);
    });

    it('unmarking an unmarked meal succeeds and changes nothing', async () => {
      const markings = await withMeals();
      await expect(markings.setMarked('alice', 1, false)).resolves.toBe(true);
      await markings.setMarked('alice', 1, false);
      expect(await probe.marked('alice', 1)).toBe(false);
      await markings.setMarked('alice', 1, true);
      expect(await probe.marked('alice', 1)).toBe(true);
    });

    it("keeps each user's markings apart", async () => {
      const markings = await withMeals();
      await markings.setMarked('alice', 1, true);
      await markings.setMarked('bob', 2, true);

      expect(await probe.marked('bob', 1)).toBe(false);
      expect(await probe.marked('alice', 2)).toBe(false);

      await markings.setMarked('bob', 1, true);
      await markings.setMarked('bob', 1, false);
      expect(await probe.marked('alice', 1)).toBe(true);
    });

    it('keeps each meal apart', async () => {
      const markings = await withMeals();
      await markings.setMarked('alice', 1, true);
      expect(await probe.marked('alice', 2)).toBe(false);
      await markings.setMarked('alice', 2, true);
      await markings.setMarked('alice', 1, false);
      expect(await probe.marked('alice', 2)).toBe(true);
    });

    it('answers whether the meal exists: true for a known meal, false (storing nothing) for an unknown one', async () => {
      const markings = await withMeals();
      await expect(markings.setMarked('alice', 2, true)).resolves.toBe(true);
      await expect(markings.setMarked('alice', 99, true)).resolves.toBe(false);
      await expect(markings.setMarked('alice', 99, false)).resolves.toBe(false);
      expect(await probe.marked('alice', 99)).toBe(false);
      expect(await probe.marked('alice', 2)).toBe(true);
    });

    it('ends marked after concurrent repeats of one mark', async () => {
      const markings = await withMeals();
      await Promise.all(Array.from({ length: 10 }, () => markings.setMarked('alice', 1, true)));
      expect(await probe.marked('alice', 1)).toBe(true);
    });
  });
}

import { createInMemoryAdapters, FixedClock, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import { GetMenuDays, ImportMenu, SetDayClosed, type MenuDay, type MenuItem } from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';

const timeZone = 'Europe/Berlin';
/** Before service on 2025-03-28: that day's meals and all later ones are still to be served. */
const beforeTheMenu = new FixedClock('2025-03-28T06:00:00Z');

const item = (name: string): MenuItem => ({ category: 'Tellergericht', name, notes: [], prices: {} });

function setup() {
  const adapters = createInMemoryAdapters(new InMemoryDatabase({ defaultTimeZone: timeZone }));
  const deps = { ...adapters, clock: beforeTheMenu };
  const importMenu = new ImportMenu({ ...deps, serviceStart: '11:00' });
  const run = (days: MenuDay[]) => importMenu.execute({ source: 'feed', days, rateable: true });
  const days = async (from: string, to: string) => {
    const read = await new GetMenuDays(deps).execute({ canteenId: 'default', from, to });
    if (!read.ok) throw new Error(read.refusal.message);
    return read.value.days.map(({ date, closed, meals }) => [date, closed, meals.map(({ meal }) => meal.name)]);
  };
  return { ...adapters, run, days, setDayClosed: new SetDayClosed(deps) };
}

describe('closed days', () => {
  it('an import records its closed days; a day it closes loses the meals still to be served; one it lists with meals opens', async () => {
    const { run, days } = setup();
    await run([
      { date: '2025-03-28', closed: false, items: [item('Currywurst')] },
      { date: '2025-03-29', closed: false, items: [item('Suppe')] },
    ]);
    await run([
      { date: '2025-03-29', closed: true },
      { date: '2025-03-30', closed: true },
    ]);
    expect(await days('2025-03-27', '2025-03-31')).toEqual([
      ['2025-03-28', false, ['Currywurst']],
      ['2025-03-29', true, []],
      ['2025-03-30', true, []],
    ]);
    await run([{ date: '2025-03-30', closed: false, items: [item('Eintopf')] }]);
    expect(await days('2025-03-30', '2025-03-30')).toEqual([['2025-03-30', false, ['Eintopf']]]);
  });

  it("SetDayClosed withdraws the day's meals still to be served and answers them; opening withdraws nothing", async () => {
    const { run, days, setDayClosed } = setup();
    await run([{ date: '2025-03-29', closed: false, items: [item('Suppe'), item('Salat')] }]);
    const closed = await setDayClosed.execute({ canteenId: 'default', date: '2025-03-29', closed: true });
    expect(closed).toEqual({ ok: true, value: { date: '2025-03-29', closed: true, withdrawn: [1, 2] } });
    expect(await days('2025-03-29', '2025-03-29')).toEqual([['2025-03-29', true, []]]);
    expect(await setDayClosed.execute({ canteenId: 'default', date: '2025-03-29', closed: false })).toMatchObject({
      ok: true,
      value: { withdrawn: [] },
    });
    expect(await days('2025-03-29', '2025-03-29')).toEqual([]);
  });

  it('SetDayClosed refuses an unknown canteen and a day that does not exist', async () => {
    const { setDayClosed } = setup();
    expect(await setDayClosed.execute({ canteenId: 'nowhere', date: '2025-03-29', closed: true })).toMatchObject({
      ok: false,
      refusal: { code: 'canteen_not_found' },
    });
    expect(await setDayClosed.execute({ canteenId: 'default', date: '2025-02-30', closed: true })).toMatchObject({
      ok: false,
      refusal: { code: 'invalid_menu_range' },
    });
  });
});

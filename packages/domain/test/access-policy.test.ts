import {
  accessRefusal,
  accessSummaryOf,
  canteensAllowed,
  grantsOf,
  mayAct,
  mayActSomewhere,
  staffScopes,
  type Grant,
  type StaffScope,
} from '@canteen-meals/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const everywhere = (scope: StaffScope): Grant => ({ scope, canteenId: null });
const at = (canteenId: string, scope: StaffScope): Grant => ({ scope, canteenId });

describe('the access policy', () => {
  it('lets meals:write do everything at every canteen, and what needs no one canteen (the webhooks)', () => {
    const admin = grantsOf([everywhere('meals:write')]);
    for (const scope of staffScopes) {
      expect(mayAct(admin, scope, 'mensa-nord')).toBe(true);
      expect(mayAct(admin, scope, null)).toBe(true);
    }
  });

  it("lets a kitchen of one canteen set that canteen's meals, not another's", () => {
    const kitchen = grantsOf([at('mensa-nord', 'meals:kitchen')]);
    expect(mayAct(kitchen, 'meals:kitchen', 'mensa-nord')).toBe(true);
    expect(mayAct(kitchen, 'meals:kitchen', 'mensa-sued')).toBe(false);
    expect(mayAct(kitchen, 'meals:manage', 'mensa-nord')).toBe(false);
    expect(accessRefusal(kitchen, 'meals:kitchen', ['mensa-sued'])).toEqual({
      code: 'forbidden',
      message: 'You may not do this at the canteen "mensa-sued": it needs the meals:kitchen scope there.',
    });
  });

  it("lets a manager do the kitchen's and the reports' work at their canteens, not the admin's", () => {
    const manager = grantsOf([at('mensa-nord', 'meals:manage')]);
    for (const scope of ['meals:manage', 'meals:kitchen', 'meals:read-reports'] as const) {
      expect(mayAct(manager, scope, 'mensa-nord')).toBe(true);
      expect(mayAct(manager, scope, 'mensa-sued')).toBe(false);
    }
    expect(mayAct(manager, 'meals:write', 'mensa-nord')).toBe(false);
    expect(mayAct(manager, 'meals:write', null)).toBe(false);
    expect(accessRefusal(manager, 'meals:write', null)?.message).toBe(
      'This needs the meals:write scope for every canteen.',
    );
  });

  it('refuses a batch when one canteen of it is outside the grant (all or nothing), naming that canteen', () => {
    const manager = grantsOf([at('mensa-nord', 'meals:manage'), at('mensa-west', 'meals:manage')]);
    expect(accessRefusal(manager, 'meals:manage', ['mensa-nord', 'mensa-west'])).toBeNull();
    expect(accessRefusal(manager, 'meals:manage', ['mensa-nord', 'mensa-sued', 'mensa-west'])?.message).toContain(
      '"mensa-sued"',
    );
    expect(accessRefusal(manager, 'meals:manage', [])).toBeNull();
  });

  it('keeps the kitchen and the reports apart: neither implies the other', () => {
    const grants = grantsOf([everywhere('meals:kitchen')]);
    expect(mayAct(grants, 'meals:kitchen', 'mensa-nord')).toBe(true);
    expect(mayAct(grants, 'meals:read-reports', 'mensa-nord')).toBe(false);
    expect(mayActSomewhere(grants, 'meals:read-reports')).toBe(false);
    expect(mayActSomewhere(grantsOf([at('mensa-nord', 'meals:read-reports')]), 'meals:read-reports')).toBe(true);
  });

  it('lists only the canteens a person may act on', () => {
    const grants = grantsOf([at('mensa-nord', 'meals:manage'), at('mensa-sued', 'meals:kitchen')]);
    expect(canteensAllowed(grants, 'meals:manage', ['default', 'mensa-nord', 'mensa-sued'])).toEqual(['mensa-nord']);
    expect(canteensAllowed(grants, 'meals:kitchen', ['default', 'mensa-nord', 'mensa-sued'])).toEqual([
      'mensa-nord',
      'mensa-sued',
    ]);
  });

  it('sums up access per existing canteen, implied scopes included; a canteen that does not exist grants nothing', () => {
    const grants = grantsOf([
      everywhere('meals:read-reports'),
      at('mensa-nord', 'meals:manage'),
      at('mensa-sued', 'meals:read-reports'),
      at('no-such-canteen', 'meals:kitchen'),
    ]);
    const summary = accessSummaryOf(grants, ['mensa-sued', 'mensa-nord', 'default']);
    expect(summary.global).toEqual(['meals:read-reports']);
    expect(Object.fromEntries(summary.canteens)).toEqual({ 'mensa-nord': ['meals:manage', 'meals:kitchen'] });
  });

  it('allows an act exactly when a grant, global or for its canteen, holds a scope implying what it needs', () => {
    const canteens = ['a', 'b', 'c'] as const;
    const grant = fc.record({
      scope: fc.constantFrom(...staffScopes),
      canteenId: fc.constantFrom<string | null>(null, ...canteens),
    });
    const implied: Record<StaffScope, readonly StaffScope[]> = {
      'meals:write': staffScopes,
      'meals:manage': ['meals:manage', 'meals:kitchen', 'meals:read-reports'],
      'meals:kitchen': ['meals:kitchen'],
      'meals:read-reports': ['meals:read-reports'],
    };
    fc.assert(
      fc.property(
        fc.array(grant, { maxLength: 6 }),
        fc.constantFrom(...staffScopes),
        fc.constantFrom<string | null>(null, ...canteens),
        (list, scope, canteenId) => {
          const covered = list.some(
            (each) => (each.canteenId === null || each.canteenId === canteenId) && implied[each.scope].includes(scope),
          );
          expect(mayAct(grantsOf(list), scope, canteenId)).toBe(covered);
          expect(accessRefusal(grantsOf(list), scope, canteenId === null ? null : [canteenId]) === null).toBe(covered);
        },
      ),
    );
  });
});

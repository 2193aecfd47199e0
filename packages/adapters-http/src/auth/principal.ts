import type { UserId } from '@canteen-meals/domain';

/** Who is calling, as established by a verified token and nothing else. */
export interface Principal {
  readonly userId: UserId;
  readonly scopes: ReadonlySet<string>;
}

export const adminScope = 'meals:write';

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyPipeline } from '../src/hot-statements.js';

// The apply pipeline sends the statements of migration 020's function itself (hot-statements.ts): the function stays
// in the database for the instances of the release before, so the two must not drift apart. Compared with the
// function's body word for word, after the renames the pipeline needs: the function's parameters numbered, and the
// meals it locked handed on in a setting of the transaction instead of its variable.
const migration = readFileSync(new URL('../migrations/020-rating-batch-apply.sql', import.meta.url), 'utf8');
const words = (sql: string) =>
  sql
    .replace(/--[^\n]*/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
const between = (text: string, start: string, end: string) => {
  const from = text.indexOf(start);
  const to = text.indexOf(end, from + start.length);
  if (from < 0 || to < 0) throw new Error(`the migration has no "${start}" ... "${end}"`);
  return text.slice(from + start.length, to);
};

describe('the apply pipeline and migration 020', () => {
  it('applies with the function’s second statement', () => {
    const body = between(migration, 'RETURN QUERY', ';\nEND');
    const renamed = body
      .replace(
        'unnest(change_ns, change_meal_ids, change_user_ids, change_next, change_expected, change_checked)',
        'unnest($1::int[], $2::bigint[], $3::text[], $4::smallint[], $5::smallint[], $6::boolean[])',
      )
      .replace(
        'c.meal_id = ANY (locked_ids)',
        "c.meal_id = ANY (current_setting('meals.rating_batch_locked')::bigint[])",
      );
    expect(renamed).not.toBe(body);
    expect(words(applyPipeline.apply.text)).toBe(words(renamed));
  });

  it('locks with the function’s first statement', () => {
    const body = between(migration, 'BEGIN\n', ';\n\n  RETURN QUERY');
    const renamed = body
      .replace(
        "SELECT coalesce(array_agg(m.meal_id), '{}') INTO locked_ids",
        "SELECT set_config('meals.rating_batch_locked', coalesce(array_agg(m.meal_id), '{}')::text, true)",
      )
      .replace(
        'unnest(read_meal_ids, read_served_ms, read_rateable)',
        'unnest($1::bigint[], $2::bigint[], $3::boolean[])',
      );
    expect(words(applyPipeline.lock.text)).toBe(words(renamed));
  });

  it('plans with the function’s settings', () => {
    const settings = between(migration, 'LANGUAGE plpgsql\n', '\nAS $$');
    expect(words(settings)).toBe('SET enable_seqscan = off SET plan_cache_mode = force_generic_plan');
    expect(applyPipeline.settings.text).toBe(
      "SELECT set_config('enable_seqscan', 'off', true), set_config('plan_cache_mode', 'force_generic_plan', true)",
    );
  });
});

import {
  createPostgresAdapters,
  hotSessionOptions,
  migrate,
  type HotStatementForm,
  type PostgresAdapters,
} from '@canteen-meals/adapters-postgres';
import { decideRatingChange, ratingPeriodMs, type Meal, type RatingValue } from '@canteen-meals/domain';
import { accepted, MealMother } from '@canteen-meals/repository-contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databasePerFile } from './support/test-database.js';

// The plans the hot statements really run with, as PostgreSQL's auto_explain reports them: every statement of this
// pool's sessions, those inside the functions of migrations 016 and 020 included, is explained as JSON in a NOTICE.
// Both forms
// of the statements (hot-statements.ts) are checked, each on a fresh database of its own.
const databaseUrls: Record<HotStatementForm, () => string> = { functions: databasePerFile(), bare: databasePerFile() };
const explainEverything = [
  'session_preload_libraries=auto_explain',
  'auto_explain.log_min_duration=0',
  'auto_explain.log_nested_statements=on',
  'auto_explain.log_format=json',
  'auto_explain.log_level=notice',
]
  .map((setting) => `-c ${setting}`)
  .join(' ');

interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly 'Index Cond'?: string;
  readonly 'TID Cond'?: string;
  readonly Plans?: readonly PlanNode[];
}
interface ExplainedStatement {
  readonly 'Query Text': string;
  readonly Plan: PlanNode;
}

/** The tables the hot statements look rows up in by key. */
const keyedTables = new Set(['meals', 'dishes', 'ratings', 'markings']);

/** What reads more of a keyed table than the rows asked for: a sequential scan, an index scan without a key, a hash. */
function scansOfKeyedTables(node: PlanNode): string[] {
  const found: string[] = [];
  const relation = node['Relation Name'];
  if (relation !== undefined && keyedTables.has(relation)) {
    const type = node['Node Type'];
    const keyed =
      type === 'Index Scan' || type === 'Index Only Scan'
        ? node['Index Cond'] !== undefined
        : type === 'Tid Scan'
          ? node['TID Cond'] !== undefined
          : type === 'Bitmap Heap Scan' || type === 'ModifyTable' || type === 'LockRows';
    if (!keyed) found.push(`${type} on ${relation}`);
  }
  if (node['Node Type'] === 'Hash') {
    for (const table of relationsUnder(node)) if (keyedTables.has(table)) found.push(`Hash of ${table}`);
  }
  for (const child of node.Plans ?? []) found.push(...scansOfKeyedTables(child));
  return found;
}

function relationsUnder(node: PlanNode): string[] {
  return [
    ...(node['Relation Name'] === undefined ? [] : [node['Relation Name']]),
    ...(node.Plans ?? []).flatMap(relationsUnder),
  ];
}

interface Explained {
  readonly adapters: PostgresAdapters;
  readonly explained: ExplainedStatement[];
}

/**
 * The adapters as openPostgres wires them in the form's pool mode, every statement explained: `functions` on the main
 * pool (transaction pool mode), `bare` on a hot pool whose sessions start with hotSessionOptions (session mode).
 */
async function explainedAdapters(form: HotStatementForm): Promise<Explained> {
  const migrating = new pg.Pool({ connectionString: databaseUrls[form](), max: 1 });
  await migrate(migrating);
  await migrating.end();
  const explained: ExplainedStatement[] = [];
  const listen = (pool: pg.Pool) =>
    pool.on('connect', (client) => {
      client.on('notice', (notice) => {
        const json = notice.message?.slice(notice.message.indexOf('{'));
        if (json !== undefined && notice.message?.includes('plan:'))
          explained.push(JSON.parse(json) as ExplainedStatement);
      });
    });
  // Two connections each: each keeps its own plans, made while the tables were as small as they ever are.
  const pool = listen(new pg.Pool({ connectionString: databaseUrls[form](), max: 2, options: explainEverything }));
  pools.push(pool);
  if (form === 'functions') return { adapters: createPostgresAdapters(pool), explained };
  const hotPool = listen(
    new pg.Pool({
      connectionString: databaseUrls[form](),
      max: 2,
      options: `${explainEverything} ${hotSessionOptions}`,
    }),
  );
  pools.push(hotPool);
  return { adapters: createPostgresAdapters(pool, { hotPool }), explained };
}

const pools: pg.Pool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
});

const served = new Date('2026-03-02T11:30:00Z');
const inPeriod = new Date(served.getTime() + ratingPeriodMs / 2);
const meal = (id: number, traits: Partial<Meal> = {}) => MealMother.servedAt(served, { id, ...traits });

describe.each([
  'functions',
  'bare',
] as const)('the plans of the hot PostgreSQL statements on a fresh database, as %s', (form) => {
  let adapters: PostgresAdapters;
  let explained: ExplainedStatement[];
  beforeAll(async () => {
    ({ adapters, explained } = await explainedAdapters(form));
  });
  const rate = (user: string, mealId: number, rating: RatingValue | null) =>
    adapters.ratings.change(user, mealId, (snapshot) => decideRatingChange(snapshot, rating, inPeriod));
  const statementsOf = (marker: string) => explained.filter((statement) => statement['Query Text'].includes(marker));

  it('look every meal, dish, rating and marking up by its key while the tables grow from empty', async () => {
    // A fresh database with the bench's shape: a few open meals and a thousand more, as one admin write each, so that
    // the first plans are made while ratings and markings are empty and meals is young.
    await adapters.meals.upsertMany([1, 2, 3, 4, 5].map((id) => meal(id)));
    await adapters.meals.upsertMany(
      Array.from({ length: 1000 }, (_, index) => meal(1_000_001 + index, { name: `Spread meal ${index}` })),
    );
    const users = Array.from({ length: 120 }, (_, index) => `user-${index}`);
    const values: (RatingValue | null)[] = [4, 2, null];
    // First ratings, changes and deletions, and markings set and cleared, in batches of many items.
    for (const value of values) {
      const answers = await Promise.all(users.map((user, index) => rate(user, 1 + (index % 5), value)));
      answers.forEach(accepted);
      const marked = await Promise.all(
        users.map((user, index) => adapters.markings.setMarked(user, 1 + (index % 5), value !== null)),
      );
      expect(marked.every(Boolean)).toBe(true);
    }
    expect(await adapters.markings.setMarked('user-0', 999, true)).toBe(false);

    // The form asked for is the one that ran: the functions' calls appear only in `functions`.
    expect(explained.some((statement) => /meals_(rating|marking)_batch/.test(statement['Query Text']))).toBe(
      form === 'functions',
    );
    const reads = statementsOf('WITH ORDINALITY AS g (meal_id, user_id, n)');
    const writes = statementsOf('meals_after AS');
    // The apply function's first statement, which locks the meals (migration 020; functions only).
    const locks = statementsOf('array_agg(m.meal_id)');
    const markings = statementsOf('INSERT INTO markings');
    for (const statements of [writes, markings]) expect(statements.length).toBeGreaterThanOrEqual(3);
    if (form === 'functions') {
      // The meals read once, the later rounds' changes were decided ahead: applied without a read.
      expect(reads.length).toBeGreaterThanOrEqual(1);
      expect(reads.length).toBeLessThan(writes.length);
      expect(locks.length).toBe(writes.length);
    } else {
      expect(reads.length).toBeGreaterThanOrEqual(3);
      expect(locks).toEqual([]);
    }
    const hot = [...reads, ...writes, ...locks, ...markings];
    const scans = hot.flatMap((statement) =>
      scansOfKeyedTables(statement.Plan).map((scan) => `${scan} in: ${statement['Query Text'].slice(0, 80)}`),
    );
    expect(scans).toEqual([]);
  });
});

describe('what the plan check recognises', () => {
  it('names a sequential scan, a hash of a scan and an index scan without a key of a keyed table, and nothing else', () => {
    const scan = (table: string): PlanNode => ({ 'Node Type': 'Seq Scan', 'Relation Name': table });
    expect(
      scansOfKeyedTables({
        'Node Type': 'Hash Join',
        Plans: [{ 'Node Type': 'Function Scan' }, { 'Node Type': 'Hash', Plans: [scan('meals')] }],
      }),
    ).toEqual(['Hash of meals', 'Seq Scan on meals']);
    expect(scansOfKeyedTables({ 'Node Type': 'Index Scan', 'Relation Name': 'ratings' })).toEqual([
      'Index Scan on ratings',
    ]);
    expect(
      scansOfKeyedTables({
        'Node Type': 'Nested Loop',
        Plans: [
          { 'Node Type': 'Function Scan' },
          { 'Node Type': 'Index Scan', 'Relation Name': 'meals', 'Index Cond': '(meal_id = g.meal_id)' },
          { 'Node Type': 'Tid Scan', 'Relation Name': 'ratings', 'TID Cond': '(ctid = f.row_id)' },
          scan('canteens'),
        ],
      }),
    ).toEqual([]);
  });
});

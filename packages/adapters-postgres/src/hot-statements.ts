/**
 * The hot statements (a rating batch's read and write, a marking batch) in two forms with the same plans:
 *
 * - `functions`: the PL/pgSQL functions of the migrations (016, 020), whose `SET` clauses pin the planner settings
 *   while they run, and the apply of a rating batch as a pipeline of the statements of `meals_rating_batch_apply`, the
 *   first of which sets the same settings for the transaction (`applyPipeline`). They need no session state, so they
 *   are what a transaction pooler (pool mode `transaction`) gets.
 * - `bare`: the functions' statements themselves, sent as named (prepared) statements on a pool of their own whose
 *   sessions get the same settings in the startup packet (`hotSessionOptions`). The PL/pgSQL call, its `RETURN QUERY`
 *   and the `SET` clauses' save and restore cost a third of these statements' PostgreSQL time (docs/benchmarks.md,
 *   "Where the rest of the time goes"). Only the hot statements run on that pool: every other statement plans with
 *   the server's defaults.
 *
 * The SQL is written once, in the migrations: each bare text and each statement of the apply pipeline is read from
 * the latest migration that creates its function (its body, each parameter it uses numbered in the function's order
 * and cast to its type), and the planner settings from the function's `SET` clauses. A plan change is one new
 * migration that replaces the function; both forms follow. `test/hot-statement-plans.test.ts` checks the plans of
 * both forms on a fresh database.
 */
import { loadMigrations, type Migration } from './migrations.js';

export type HotStatementForm = 'functions' | 'bare';

/** A PL/pgSQL function of a migration: its parameters, its `SET` clauses and the statements of its body. */
export interface MigratedFunction {
  readonly name: string;
  readonly parameters: readonly { readonly name: string; readonly type: string }[];
  /** The `SET name = value` clauses, in order. */
  readonly settings: readonly (readonly [string, string])[];
  /** Its `DECLARE`d variables. */
  readonly variables: readonly { readonly name: string; readonly type: string }[];
  /** Between `BEGIN` and `END`: each statement without its `;`, `RETURN QUERY` left out. */
  readonly statements: readonly string[];
}

const functionPattern =
  /CREATE (?:OR REPLACE )?FUNCTION (\w+)\(([^)]*)\)[\s\S]*?LANGUAGE plpgsql\n([\s\S]*?)\nAS \$\$\n([\s\S]*?)\$\$;/g;

/** The functions the migrations create, by name: the latest migration's wins (a migration may replace a function). */
export function migratedFunctions(migrations: readonly Migration[]): ReadonlyMap<string, MigratedFunction> {
  const found = new Map<string, MigratedFunction>();
  for (const migration of migrations) {
    for (const [, name, parameters, settings, body] of migration.sql.matchAll(functionPattern)) {
      const declare = /^DECLARE\n([\s\S]*?)\nBEGIN\n/m.exec(body!);
      const statements = body!
        .slice(body!.indexOf('BEGIN\n') + 'BEGIN\n'.length, body!.lastIndexOf('\nEND'))
        .split(/;\n/)
        .map((statement) =>
          statement
            .replace(/^\s*RETURN QUERY\n/, '')
            .trim()
            .replace(/;$/, ''),
        )
        .filter((statement) => statement !== '');
      found.set(name!, {
        name: name!,
        parameters: pairs(parameters!, ','),
        settings: [...settings!.matchAll(/SET (\w+) = (\w+)/g)].map(
          ([, setting, value]) => [setting!, value!] as const,
        ),
        variables: declare === null ? [] : pairs(declare[1]!, ';'),
        statements,
      });
    }
  }
  return found;
}

/** `a type, b type` (or `a type; b type;`) as names and types. */
function pairs(list: string, separator: string): { name: string; type: string }[] {
  return list
    .split(separator)
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map((item) => {
      const [name, ...type] = item.split(/\s+/);
      return { name: name!, type: type.join(' ') };
    });
}

/** `name` as an identifier of its own (not a column of a table, not part of a longer name). */
const identifier = (name: string) => new RegExp(`(?<![\\w.])${name}(?!\\w)`, 'g');

/** A parameter's type as the statements spell it in their casts (`integer[]` as `int[]`). */
const castOf = (type: string) => type.replace(/^integer(?=\[|$)/, 'int');

/**
 * One of a function's statements as a statement of its own: each parameter it uses becomes `$n::type`, numbered in the
 * function's order of the parameters it uses.
 */
export function bareStatement(fn: MigratedFunction, index: number): string {
  let text = fn.statements[index];
  if (text === undefined) throw new Error(`${fn.name} has no statement ${index + 1}`);
  let number = 0;
  for (const parameter of fn.parameters) {
    if (!identifier(parameter.name).test(text)) continue;
    number += 1;
    const placeholder = `$${number}::${castOf(parameter.type)}`;
    text = text.replace(identifier(parameter.name), () => placeholder);
  }
  return text;
}

const migrated = migratedFunctions(loadMigrations());

function migratedFunction(name: string): MigratedFunction {
  const found = migrated.get(name);
  if (found === undefined) throw new Error(`no migration creates the function ${name}`);
  return found;
}

const ratingBatchRead = migratedFunction('meals_rating_batch_read');
const ratingBatchWrite = migratedFunction('meals_rating_batch_write');
const ratingBatchApply = migratedFunction('meals_rating_batch_apply');
const markingBatch = migratedFunction('meals_marking_batch');

/**
 * The planner settings of every hot statement (the `SET` clauses of the functions, the same on each): given to the
 * bare statements' sessions at their start, and to the apply pipeline's transaction by its first statement.
 */
const hotPlannerSettings = ratingBatchRead.settings;
for (const fn of [ratingBatchWrite, ratingBatchApply, markingBatch]) {
  if (JSON.stringify(fn.settings) !== JSON.stringify(hotPlannerSettings))
    throw new Error(`${fn.name} plans with other settings than ${ratingBatchRead.name}`);
}

/**
 * The planner settings of the sessions that run the bare statements, as libpq `options`: with sequential scans off the
 * only path left inside each per-item lookup is the key's index, and each session plans each statement once.
 */
export const hotSessionOptions = hotPlannerSettings.map(([name, value]) => `-c ${name}=${value}`).join(' ');

export interface NamedStatement {
  readonly name: string;
  readonly rowMode: 'array';
  readonly text: string;
}

const readFunction: NamedStatement = {
  name: 'meals-rating-batch-read',
  rowMode: 'array',
  text: 'SELECT * FROM meals_rating_batch_read($1::bigint[], $2::text[])',
};

const readBare: NamedStatement = {
  name: 'meals-rating-batch-read-bare',
  rowMode: 'array',
  text: bareStatement(ratingBatchRead, 0),
};

const writeBare: NamedStatement = {
  name: 'meals-rating-batch-write-bare',
  rowMode: 'array',
  text: bareStatement(ratingBatchWrite, 0),
};

const markFunction: NamedStatement = {
  name: 'meals-marking-batch',
  rowMode: 'array',
  text: 'SELECT n FROM meals_marking_batch($1::text[], $2::bigint[], $3::boolean[])',
};

const markBare: NamedStatement = {
  name: 'meals-marking-batch-bare',
  rowMode: 'array',
  text: bareStatement(markingBatch, 0),
};

/**
 * The apply's variable (the meals its first statement locked) handed on in a setting of the transaction: its first
 * statement's `SELECT ... INTO` sets it, the second reads it back.
 */
function handedOn(fn: MigratedFunction): { readonly lock: string; readonly apply: string } {
  const [variable] = fn.variables;
  if (variable === undefined || fn.variables.length > 1) throw new Error(`${fn.name}: one variable expected`);
  const setting = 'meals.rating_batch_locked';
  const into = new RegExp(`^SELECT ([\\s\\S]*?) INTO ${variable.name}\\n`);
  const lock = bareStatement(fn, 0);
  if (!into.test(lock)) throw new Error(`${fn.name}: its first statement does not select INTO ${variable.name}`);
  return {
    lock: lock.replace(into, (_match, value: string) => `SELECT set_config('${setting}', ${value}::text, true)\n`),
    apply: bareStatement(fn, 1).replace(
      identifier(variable.name),
      () => `current_setting('${setting}')::${variable.type}`,
    ),
  };
}

const applyStatements = handedOn(ratingBatchApply);

/**
 * A rating batch decided without a read, applied in one round trip: the two statements of the function
 * `meals_rating_batch_apply` (migration 020), sent as a pipeline (statement-pipeline.ts) after a statement that sets
 * the function's planner settings for the transaction. One Sync ends the three, so they are one transaction, and the
 * apply statement takes its snapshot after the meals' locks, as the function's second statement does; the meals the
 * lock statement locked are handed on in a setting of the transaction (`meals.rating_batch_locked`), as the function
 * hands its variable on. Without the PL/pgSQL call, its `RETURN QUERY` and its `SET` clauses, PostgreSQL spends less
 * on each write (docs/benchmarks.md, "The apply without PL/pgSQL"). The function stays for instances of the release
 * before.
 */
export const applyPipeline = {
  label: 'meals-rating-batch-apply',
  /** The settings of the hot functions, for the rest of the transaction. */
  settings: {
    name: 'meals-hot-settings',
    text: `SELECT ${hotPlannerSettings.map(([name, value]) => `set_config('${name}', '${value}', true)`).join(', ')}`,
  },
  /**
   * The function's first statement: the batch's meals that still have the rule fields decided on, locked in id order.
   */
  lock: { name: 'meals-rating-batch-lock', text: applyStatements.lock },
  /** The function's second statement, on the locked meals' changes; its rows are those of the function (ApplyRow). */
  apply: { name: 'meals-rating-batch-apply-locked', text: applyStatements.apply },
} as const;

/**
 * How a form writes a rating batch: the `functions` form applies changes decided ahead as well as those decided on a
 * read (the apply pipeline; the functions `meals_rating_batch_write` of 016 and `meals_rating_batch_apply` of 020 stay
 * for instances of the releases before); the bare form writes only changes decided on a read, as compare-and-sets.
 */
export type RatingBatchWrite =
  | { readonly takes: 'changes decided ahead too'; readonly pipeline: typeof applyPipeline }
  | { readonly takes: 'changes decided on a read'; readonly statement: NamedStatement };

/** The hot statements in one form; each takes the parameters of its function, in the function's order. */
export interface HotStatements {
  readonly readRatingBatch: NamedStatement;
  readonly writeRatingBatch: RatingBatchWrite;
  readonly markBatch: NamedStatement;
}

export const hotStatements: Readonly<Record<HotStatementForm, HotStatements>> = {
  functions: {
    readRatingBatch: readFunction,
    writeRatingBatch: { takes: 'changes decided ahead too', pipeline: applyPipeline },
    markBatch: markFunction,
  },
  bare: {
    readRatingBatch: readBare,
    writeRatingBatch: { takes: 'changes decided on a read', statement: writeBare },
    markBatch: markBare,
  },
};

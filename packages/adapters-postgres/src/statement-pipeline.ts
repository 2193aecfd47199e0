/// <reference path="./pg-lib-utils.d.ts" />
import type pg from 'pg';
import pgUtils from 'pg/lib/utils.js';

/** One statement of a pipeline: its text, the name it is prepared under on each connection, its parameters. */
export interface PipelinedStatement {
  readonly name: string;
  readonly text: string;
  readonly values: readonly unknown[];
}

/** The fields of one row, as PostgreSQL sends them in text format (null for SQL NULL). */
export type TextRow = readonly (string | null)[];

/** The parts of node-postgres's connection a pipeline writes to (those its own Query and pg-cursor use). */
interface Wire {
  readonly stream: { cork(): void; uncork(): void };
  parse(message: { name: string; text: string; types: unknown[] }): void;
  bind(message: { portal: string; statement: string; values: unknown[] }): void;
  execute(message: { portal: string; rows: number }): void;
  close(message: { type: 'S'; name: string }): void;
  sync(): void;
  sendCopyFail(message: string): void;
}

/**
 * What each connection has prepared of the pipelines' statements: `prepared` after a pipeline that parsed it
 * succeeded, `unknown` after one failed (PostgreSQL skips every message after an error until the Sync, a Parse
 * included), so the next use closes the name before it parses it again (closing a name that is not prepared is no
 * error).
 */
const preparedOn = new WeakMap<object, Map<string, 'prepared' | 'unknown'>>();

/**
 * Several statements in one round trip and one transaction, for `pool.query(pipeline)` (a node-postgres Submittable,
 * the extension point pg-cursor uses): each statement is bound and executed in turn, and one Sync ends them all, so
 * they form one implicit transaction that commits at the Sync, or rolls back as a whole when one fails. In READ
 * COMMITTED each statement takes its own snapshot when it starts, so it sees what the ones before it waited for.
 *
 * Named statements are parsed once per connection; `unnamed()` has each one parsed every time, for a transaction pooler
 * that may run the next transaction on a session that never prepared them. The answer is the rows of the last
 * statement, in text format (no Describe is sent: the caller knows the columns); the rows of the others are dropped.
 */
export class StatementPipeline implements pg.Submittable {
  /**
   * Set by node-postgres (pool.query passes its callback on); called once, with the last statement's rows or the error.
   */
  callback?: ((error: Error | null, rows?: TextRow[]) => void) | undefined;
  /** The last statement's rows once PostgreSQL answered the Sync, or the first error. */
  readonly rows: Promise<TextRow[]>;
  private settle!: (error: Error | null) => void;
  private completed = 0;
  private readonly answered: TextRow[] = [];
  private parsedNames: string[] = [];
  private prepared: Map<string, 'prepared' | 'unknown'> | undefined;

  /** `label` names the pipeline where a statement's name would (logs, tests counting what was sent). */
  constructor(
    readonly label: string,
    private readonly statements: readonly PipelinedStatement[],
    private named = true,
  ) {
    if (statements.length === 0) throw new RangeError('a statement pipeline needs at least one statement');
    this.rows = new Promise((resolve, reject) => {
      this.settle = (error) => (error === null ? resolve(this.answered) : reject(error));
    });
    // Whoever ran it hears of a failure through its callback or `rows`; not both need to listen.
    this.rows.catch(() => undefined);
  }

  /** Parses the statements every time instead of preparing them under their names (before it is submitted). */
  unnamed(): this {
    this.named = false;
    return this;
  }

  submit(connection: pg.Connection): Error | null {
    const wire = connection as unknown as Wire;
    let values: unknown[][];
    try {
      // Before anything is written: a value node-postgres cannot send fails the pipeline, not the connection.
      values = this.statements.map((statement) => statement.values.map((value) => pgUtils.prepareValue(value)));
    } catch (error) {
      return error as Error;
    }
    let prepared = preparedOn.get(connection);
    if (prepared === undefined) preparedOn.set(connection, (prepared = new Map()));
    this.prepared = prepared;
    wire.stream.cork();
    try {
      this.statements.forEach((statement, index) => {
        const name = this.named ? statement.name : '';
        const state = this.named ? prepared.get(name) : undefined;
        if (state !== 'prepared') {
          if (state === 'unknown') wire.close({ type: 'S', name });
          wire.parse({ name, text: statement.text, types: [] });
          if (this.named) {
            prepared.set(name, 'prepared');
            this.parsedNames.push(name);
          }
        }
        wire.bind({ portal: '', statement: name, values: values[index]! });
        wire.execute({ portal: '', rows: 0 });
      });
      wire.sync();
    } finally {
      wire.stream.uncork();
    }
    return null;
  }

  handleDataRow(message: { fields: TextRow }): void {
    if (this.completed === this.statements.length - 1) this.answered.push(message.fields);
  }

  handleCommandComplete(): void {
    this.completed += 1;
  }

  handleError(error: Error): void {
    for (const name of this.parsedNames) this.prepared?.set(name, 'unknown');
    this.parsedNames = [];
    this.finish(error);
  }

  handleReadyForQuery(): void {
    if (this.completed !== this.statements.length) {
      this.handleError(
        new Error(`${this.label}: PostgreSQL completed ${this.completed} of ${this.statements.length} statements`),
      );
      return;
    }
    this.finish(null);
  }

  // Never sent (no Describe, no COPY, no row limit), but node-postgres may call them on any active query.
  handleRowDescription(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
  handleCopyInResponse(connection: pg.Connection): void {
    (connection as unknown as Wire).sendCopyFail(`${this.label} copies nothing`);
  }

  private finish(error: Error | null): void {
    const callback = this.callback;
    this.callback = undefined;
    this.settle(error);
    this.settle = () => {};
    if (error === null) callback?.(null, this.answered);
    else callback?.(error);
  }
}

/**
 * Runs a pipeline on a connection of the pool, and answers the last statement's rows. pg-pool's `query` settles when
 * the pipeline has (it passes its own callback on, and releases the connection then); a client's `query`, or a proxy
 * that passes a Submittable to one, answers the Submittable at once: either way the rows come from the pipeline.
 */
export async function queryPipeline(pool: Pick<pg.Pool, 'query'>, pipeline: StatementPipeline): Promise<TextRow[]> {
  await (pool.query as (submittable: StatementPipeline) => unknown).call(pool, pipeline);
  return pipeline.rows;
}

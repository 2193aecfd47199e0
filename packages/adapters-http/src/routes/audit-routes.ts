import { Readable } from 'node:stream';
import {
  canteensAllowed,
  listAuditEntriesRefusals,
  mayAct,
  type AccessGrants,
  type AuditCursor,
  type AuditEntry,
  type CanteenId,
  type ListAuditEntries,
  type ListAuditEntriesQuery,
} from '@canteen-meals/domain';
import { routes, type AuditEntryData, type AuditExportQuery } from '@canteen-meals/http-contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { authenticatedPrincipal } from '../auth/authenticate.js';
import { sendRefusal, wireCodesOf } from '../error-mapping.js';
import { HttpError } from '../http-error.js';
import { auditCsvChunks } from '@canteen-meals/read-models';
import { authenticatedRouteErrors } from '../schemas/error-responses.js';
import { serveRoute } from '../serve-route.js';
import { createCursorSeal } from './cursor-seal.js';

export interface AuditRoutesOptions {
  readonly listAuditEntries: ListAuditEntries;
  readonly cursorSecret?: string | undefined;
}

const defaultPageSize = 50;
/** The export reads the trail a page at a time, streaming each: never the whole trail in memory. */
const exportPageSize = 500;
const csv = 'text/csv; charset=utf-8';
const cursorFormat = /^(-?\d{1,16}):(\d{1,20})$/;

/**
 * Whose entries the caller reads: meals:write every one; meals:manage for every canteen those of every canteen;
 * meals:manage at some canteens theirs. The access rule of the route lets only a manager or an admin in.
 */
function visibleTo(grants: AccessGrants): ListAuditEntriesQuery['visible'] {
  if (mayAct(grants, 'meals:write', null)) return 'all';
  if (mayAct(grants, 'meals:manage', null)) return 'canteens';
  return canteensAllowed(grants, 'meals:manage', grants.byCanteen.keys());
}

function instantOf(value: string | undefined, name: string): Date | undefined {
  if (value === undefined) return undefined;
  const instant = new Date(value);
  if (Number.isNaN(instant.getTime()))
    throw new HttpError('invalid_request', `query parameter "${name}" is no instant`);
  return instant;
}

function auditEntryDataOf(entry: AuditEntry): AuditEntryData {
  return {
    id: entry.id,
    at: entry.at.toISOString(),
    actor: entry.actor,
    actor_scopes: [...entry.actorScopes],
    action: entry.action,
    canteen_id: entry.canteenId,
    target: entry.target,
    summary: entry.summary,
    request_id: entry.requestId,
  };
}

/** The filters as the use case takes them, for one caller. */
function filtersOf(query: AuditExportQuery, grants: AccessGrants) {
  return {
    visible: visibleTo(grants),
    canteenId: query.canteen as CanteenId | undefined,
    actor: query.actor,
    action: query.action,
    from: instantOf(query.from, 'from'),
    to: instantOf(query.to, 'to'),
  };
}

/** Who changed what: the audit trail, a page at a time and as CSV (meals:write, or meals:manage). */
export const auditRoutes: FastifyPluginAsyncTypebox<AuditRoutesOptions> = async (app, options) => {
  const { listAuditEntries } = options;
  const seal = createCursorSeal(options.cursorSecret);
  // A cursor pages one caller's list with the same filters, and no other.
  const scopeOf = (userId: string, query: AuditExportQuery) =>
    `audit\n${userId}\n${JSON.stringify([query.canteen, query.actor, query.action, query.from, query.to])}`;
  const errors = [
    ...authenticatedRouteErrors,
    'forbidden',
    'invalid_request',
    'invalid_cursor',
    ...wireCodesOf(listAuditEntriesRefusals),
  ] as const;

  serveRoute(app, routes.listAuditEntries, { errors }, async (request, reply) => {
    const principal = authenticatedPrincipal(request);
    const { limit, cursor, ...filters } = request.query;
    const scope = scopeOf(principal.userId, filters);
    let after: AuditCursor | undefined;
    if (cursor !== undefined) {
      const match = cursorFormat.exec(seal.open(scope, cursor) ?? '');
      if (match === null) throw new HttpError('invalid_cursor', 'The cursor is not one this list handed out.');
      after = { at: new Date(Number(match[1])), id: match[2]! };
    }
    const pageSize = limit === undefined ? defaultPageSize : Number(limit);
    if (pageSize > 500) throw new HttpError('invalid_request', 'query parameter "limit" must be from 1 to 500');
    const page = await listAuditEntries.execute({
      ...filtersOf(filters, principal.grants),
      after,
      limit: pageSize,
    });
    if (!page.ok) return sendRefusal(reply, page.refusal);
    const { entries, next } = page.value;
    reply.header('cache-control', 'private, no-store');
    return {
      status: 'success' as const,
      data: {
        entries: entries.map(auditEntryDataOf),
        next_cursor: next === null ? null : seal.seal(scope, `${next.at.getTime()}:${next.id}`),
      },
    };
  });

  serveRoute(app, routes.exportAuditEntries, { errors }, async (request, reply) => {
    const principal = authenticatedPrincipal(request);
    const filters = filtersOf(request.query, principal.grants);
    // The first page before the answer starts: a refusal is still an error answer, not a broken file.
    const first = await listAuditEntries.execute({ ...filters, limit: exportPageSize });
    if (!first.ok) return sendRefusal(reply, first.refusal);
    async function* pages() {
      let page = first.ok ? first.value : { entries: [], next: null };
      yield page.entries;
      while (page.next !== null) {
        const more = await listAuditEntries.execute({ ...filters, after: page.next, limit: exportPageSize });
        if (!more.ok) return;
        page = more.value;
        yield page.entries;
      }
    }
    reply
      .type(csv)
      .header('content-disposition', 'attachment; filename="audit.csv"')
      .header('cache-control', 'private, no-store');
    return (reply as FastifyReply).send(Readable.from(auditCsvChunks(pages()), { objectMode: false }));
  });
};

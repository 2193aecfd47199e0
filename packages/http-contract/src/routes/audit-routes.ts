import { Type } from '@sinclair/typebox';
import { AuditData, AuditExportQuery, AuditQuery, auditCsvColumns } from '../audit-schemas.js';
import { successEnvelope } from '../envelope.js';
import { route } from '../route-contract.js';
import { endpoints } from '../endpoints.js';

/** Who changed what: the audit trail of staff changes, as a list and as CSV. */
export const auditRoutes = {
  listAuditEntries: route({
    ...endpoints.listAuditEntries,
    operationId: 'listAuditEntries',
    summary:
      'The audit trail: every change made with a staff scope, newest first, filtered by canteen, person, action and ' +
      'period (meals:write: every entry; meals:manage: the entries of its canteens)',
    tags: ['admin'],
    querystring: AuditQuery,
    // No example: the documented examples are real answers of one story (examples-are-real.test.ts); docs/api.md has
    // one.
    responses: { 200: successEnvelope(AuditData) },
  }),
  exportAuditEntries: route({
    ...endpoints.exportAuditEntries,
    operationId: 'exportAuditEntries',
    summary:
      'The audit trail with the same filters as CSV for spreadsheets, newest first (the same scopes as the list)',
    tags: ['admin'],
    querystring: AuditExportQuery,
    responses: {
      200: {
        description: `One row per entry after a header row (UTF-8 with a byte order mark, RFC 4180, CRLF): ${auditCsvColumns.join(', ')}; actor_scopes space-separated, summary as JSON`,
        content: { 'text/csv': { schema: Type.String({ description: 'CSV text' }) } },
      },
    },
  }),
};

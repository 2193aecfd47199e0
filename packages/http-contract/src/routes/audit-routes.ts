import { Type } from '@sinclair/typebox';
import { AuditData, AuditExportQuery, AuditQuery, auditCsvColumns } from '../audit-schemas.js';
import { successEnvelope } from '../envelope.js';
import { successExample } from '../examples.js';
import { route } from '../route-contract.js';
import { endpoints } from '../endpoints.js';

const exampleEntry = {
  id: '000000000042',
  at: '2026-03-10T11:32:05.120Z',
  actor: 'maria',
  actor_scopes: ['meals:manage@mensa-nord'],
  action: 'availability.set' as const,
  canteen_id: 'mensa-nord',
  target: 'meal 7',
  summary: { meal_id: 7, date: '2026-03-10', old_status: 'available', new_status: 'sold_out' },
  request_id: 'req-1f',
};

/** Who changed what (issue 43): the audit trail of staff changes, as a list and as CSV. */
export const auditRoutes = {
  listAuditEntries: route({
    ...endpoints.listAuditEntries,
    operationId: 'listAuditEntries',
    summary:
      'The audit trail: every change made with a staff scope, newest first, filtered by canteen, person, action and ' +
      'period (meals:write: every entry; meals:manage: the entries of its canteens)',
    tags: ['admin'],
    querystring: AuditQuery,
    responses: { 200: successEnvelope(AuditData, successExample({ entries: [exampleEntry], next_cursor: null })) },
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

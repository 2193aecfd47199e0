import { auditActions } from '@canteen-meals/domain';
import { Type, type Static } from '@sinclair/typebox';
import { CanteenId } from './canteen-schemas.js';

/** The most entries one page of the trail holds. */
export const maxAuditPageSize = 500;

/** The columns of the trail's CSV export, in order. */
export const auditCsvColumns = [
  'id',
  'at',
  'actor',
  'actor_scopes',
  'action',
  'canteen_id',
  'target',
  'summary',
  'request_id',
] as const;

/** An instant in RFC 3339 (`2026-03-10T11:30:00Z`, `2026-03-10T12:30:00+01:00`). */
const instantPattern = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$';

/** The trail's filters, shared by the list and the export. */
const auditFilters = {
  canteen: Type.Optional(CanteenId),
  actor: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: "A person's token subject (sub)" })),
  action: Type.Optional(Type.Union(auditActions.map((action) => Type.Literal(action)))),
  from: Type.Optional(
    Type.String({ pattern: instantPattern, description: 'Entries from this instant (included), RFC 3339' }),
  ),
  to: Type.Optional(
    Type.String({ pattern: instantPattern, description: 'Entries before this instant (excluded), RFC 3339' }),
  ),
};

export const AuditQuery = Type.Object(
  {
    ...auditFilters,
    limit: Type.Optional(
      Type.String({
        pattern: '^[1-9][0-9]{0,2}$',
        description: `Entries per page, 1 to ${maxAuditPageSize}; 50 when absent`,
      }),
    ),
    cursor: Type.Optional(
      Type.String({ description: 'The next_cursor of the previous page (opaque, for these filters and caller only)' }),
    ),
  },
  { additionalProperties: false },
);
export type AuditQuery = Static<typeof AuditQuery>;

export const AuditExportQuery = Type.Object(auditFilters, { additionalProperties: false });
export type AuditExportQuery = Static<typeof AuditExportQuery>;

export const AuditEntryData = Type.Object({
  id: Type.String(),
  at: Type.String({ description: 'When the change was made (RFC 3339, UTC)' }),
  actor: Type.String({ description: 'Who made the change: the token subject' }),
  actor_scopes: Type.Array(Type.String(), {
    description: 'The staff scopes the token held, a scope of one canteen as `scope@canteen_id`',
  }),
  action: Type.Union(auditActions.map((action) => Type.Literal(action))),
  canteen_id: Type.Union([CanteenId, Type.Null()], { description: 'null: a change of no one canteen (a webhook)' }),
  target: Type.String({
    description: 'What was changed: `meal 42`, `feed full`, `webhook ops`, a day or a canteen id',
  }),
  summary: Type.Record(Type.String(), Type.Unknown(), {
    description:
      'What changed: availability old_status and new_status; a menu upsert the meal ids added, changed and withdrawn; ' +
      'the fields of a canteen edited; never personal data of students',
  }),
  request_id: Type.String({ description: 'The request that made the change, as in the server log' }),
});
export type AuditEntryData = Static<typeof AuditEntryData>;

export const AuditData = Type.Object({
  entries: Type.Array(AuditEntryData, { description: 'Newest first' }),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});
export type AuditData = Static<typeof AuditData>;

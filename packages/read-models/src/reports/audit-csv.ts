import type { AuditEntry } from '@canteen-meals/domain';
import { auditCsvColumns } from '@canteen-meals/http-contract';
import { byteOrderMark, csvLine, textField } from './csv.js';

/**
 * The audit trail as CSV text, in chunks of a page each: the byte order mark and the header row, then one line per
 * entry. Every field a person or a client wrote (the subject, the target, the summary's texts) is free text.
 */
export async function* auditCsvChunks(pages: AsyncIterable<readonly AuditEntry[]>): AsyncGenerator<string> {
  yield byteOrderMark + csvLine(auditCsvColumns);
  for await (const entries of pages) {
    if (entries.length > 0) yield entries.map((entry) => csvLine(auditCsvFields(entry))).join('');
  }
}

export function auditCsvFields(entry: AuditEntry): string[] {
  return [
    entry.id,
    entry.at.toISOString(),
    textField(entry.actor),
    textField(entry.actorScopes.join(' ')),
    entry.action,
    entry.canteenId ?? '',
    textField(entry.target),
    textField(JSON.stringify(entry.summary)),
    textField(entry.requestId),
  ];
}

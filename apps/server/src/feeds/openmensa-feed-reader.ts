import { readOpenMensaFeed } from '@canteen-meals/adapters-openmensa';
import type { MenuFeedReader } from '@canteen-meals/domain';

/** Menu feeds are OpenMensa v2 XML: checked whole against the schema, hostile XML refused (see adapters-openmensa). */
export const openMensaFeedReader: MenuFeedReader = {
  read: (bytes) => ({ days: readOpenMensaFeed(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).days }),
};

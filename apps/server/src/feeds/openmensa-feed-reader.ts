import { readOpenMensaFeed, writeOpenMensaFeed } from '@canteen-meals/adapters-openmensa';
import type { MenuFeedReader, MenuFeedWriter } from '@canteen-meals/domain';

/** Menu feeds are OpenMensa v2 XML: checked whole against the schema, hostile XML refused (see adapters-openmensa). */
export const openMensaFeedReader: MenuFeedReader = {
  read: (bytes) => ({ days: readOpenMensaFeed(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).days }),
};

/** A canteen's menu exported as an OpenMensa feed v2.1 (`GET /api/v1/canteens/{id}/openmensa.xml`). */
export const openMensaFeedWriter: MenuFeedWriter = { write: writeOpenMensaFeed };

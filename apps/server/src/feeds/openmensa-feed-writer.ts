import { writeOpenMensaFeed } from '@canteen-meals/adapters-openmensa/writer';
import type { MenuFeedWriter } from '@canteen-meals/domain/ports';

/** A canteen's menu exported as an OpenMensa feed v2.1 (`GET /api/v1/canteens/{id}/openmensa.xml`). */
export const openMensaFeedWriter: MenuFeedWriter = { write: writeOpenMensaFeed };

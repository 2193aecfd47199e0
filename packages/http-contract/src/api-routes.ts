import { auditRoutes } from './routes/audit-routes.js';
import { canteenRoutes } from './routes/canteen-routes.js';
import { dishRoutes } from './routes/dish-routes.js';
import { mealRoutes } from './routes/meal-routes.js';
import { readRoutes } from './routes/read-routes.js';
import { userRoutes } from './routes/user-routes.js';
import { webhookRoutes } from './routes/webhook-routes.js';

/** Every route of the API by operation: `routes.rateMeal` is what the server registers and the client calls. */
export const routes = {
  ...canteenRoutes,
  ...mealRoutes,
  ...dishRoutes,
  ...webhookRoutes,
  ...userRoutes,
  ...readRoutes,
  ...auditRoutes,
};

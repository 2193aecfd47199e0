import { databasePerFile } from '../../../packages/adapters-postgres/test/support/test-database.js';
import { describeAvailabilityThroughTheService } from './support/availability-scenario.js';

// Two instances on one database: the kitchen writes through the first, the live stream and the menu read the second.
describeAvailabilityThroughTheService('PostgreSQL', databasePerFile(), { instances: 2 });

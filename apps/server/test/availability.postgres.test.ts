import { databasePerFile } from '../../../packages/adapters-postgres/test/support/test-database.js';
import { describeAvailabilityThroughTheService } from './support/availability-scenario.js';

describeAvailabilityThroughTheService('PostgreSQL', databasePerFile());

import { databasePerFile } from '../../../packages/adapters-postgres/test/support/test-database.js';
import { describeAuditThroughTheService } from './support/audit-scenario.js';

describeAuditThroughTheService('PostgreSQL', databasePerFile());

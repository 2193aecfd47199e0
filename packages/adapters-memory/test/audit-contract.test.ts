import { createInMemoryAdapters } from '@canteen-meals/adapters-memory';
import { describeAuditLogContract } from '@canteen-meals/repository-contract';

describeAuditLogContract('in-memory', () => createInMemoryAdapters());

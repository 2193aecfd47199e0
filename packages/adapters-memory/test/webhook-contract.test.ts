import { createInMemoryAdapters } from '@canteen-meals/adapters-memory';
import { describeWebhookContracts } from '@canteen-meals/repository-contract';

describeWebhookContracts('in-memory', () => createInMemoryAdapters());

import { describeAvailabilityRepositoryContract } from './availability-repository-contract.js';
import { describeWebhookDeliveryContract } from './webhook-delivery-contract.js';
import { describeWebhookFanOutContract } from './webhook-fan-out-contract.js';
import type { CreateWebhookRepositoryFixture } from './webhook-fixture.js';
import { describeWebhookRecordingContract } from './webhook-recording-contract.js';

/**
 * The webhook contracts: recording in the menu writes, the fan-out with favourites, endpoints and deliveries; and the
 * availability of servings, whose changes record their events in the same outbox.
 */
export function describeWebhookContracts(adapterName: string, createFixture: CreateWebhookRepositoryFixture): void {
  describeWebhookRecordingContract(adapterName, createFixture);
  describeWebhookFanOutContract(adapterName, createFixture);
  describeWebhookDeliveryContract(adapterName, createFixture);
  describeAvailabilityRepositoryContract(adapterName, createFixture);
}

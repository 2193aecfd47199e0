import { successEnvelope } from '../envelope.js';
import { successExample } from '../examples.js';
import { PageQuery } from '../read-schemas.js';
import { endpoints } from '../endpoints.js';
import { route } from '../route-contract.js';
import { exampleCreatedWebhook, exampleWebhook } from '../webhook-examples.js';
import {
  DeletedWebhookData,
  DeliveriesData,
  WebhookBody,
  WebhookData,
  WebhookParams,
  WebhooksData,
} from '../webhook-schemas.js';

/** The admin's webhook endpoints and their delivery logs. */
export const webhookRoutes = {
  saveWebhook: route({
    ...endpoints.saveWebhook,
    operationId: 'saveWebhook',
    summary:
      'Create or replace a webhook endpoint (needs the meals:write scope); 201 when created, 200 when replaced. ' +
      'Without a secret one is generated and shown in this answer only. A replaced endpoint is enabled again',
    params: WebhookParams,
    body: WebhookBody,
    responses: {
      200: successEnvelope(WebhookData, successExample(exampleWebhook)),
      201: successEnvelope(WebhookData, successExample(exampleCreatedWebhook)),
    },
  }),
  listWebhooks: route({
    ...endpoints.listWebhooks,
    operationId: 'listWebhooks',
    summary: 'Every webhook endpoint, by id (without secrets)',
    responses: { 200: successEnvelope(WebhooksData, successExample({ webhooks: [exampleWebhook] })) },
  }),
  getWebhook: route({
    ...endpoints.getWebhook,
    operationId: 'getWebhook',
    summary: 'One webhook endpoint (without its secret)',
    params: WebhookParams,
    responses: { 200: successEnvelope(WebhookData, successExample(exampleWebhook)) },
  }),
  deleteWebhook: route({
    ...endpoints.deleteWebhook,
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook endpoint with its pending deliveries and its log: nothing more is sent to it',
    params: WebhookParams,
    responses: {
      200: successEnvelope(
        DeletedWebhookData,
        successExample({ webhook_id: exampleWebhook.webhook_id, deleted: true }),
      ),
    },
  }),
  listDeliveries: route({
    ...endpoints.listDeliveries,
    operationId: 'listDeliveries',
    summary:
      "A webhook's delivery log, newest first: each event's state, attempts, last status and error, next attempt",
    params: WebhookParams,
    querystring: PageQuery,
    responses: { 200: successEnvelope(DeliveriesData) },
  }),
};

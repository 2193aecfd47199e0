import { successEnvelope } from '../envelope.js';
import { successExample } from '../examples.js';
import { PageQuery } from '../read-schemas.js';
import { route } from '../route-contract.js';
import { routePaths } from '../routes.js';
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
    method: 'PUT',
    path: routePaths.webhook,
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
    method: 'GET',
    path: routePaths.listWebhooks,
    operationId: 'listWebhooks',
    summary: 'Every webhook endpoint, by id (without secrets)',
    responses: { 200: successEnvelope(WebhooksData, successExample({ webhooks: [exampleWebhook] })) },
  }),
  getWebhook: route({
    method: 'GET',
    path: routePaths.webhook,
    operationId: 'getWebhook',
    summary: 'One webhook endpoint (without its secret)',
    params: WebhookParams,
    responses: { 200: successEnvelope(WebhookData, successExample(exampleWebhook)) },
  }),
  deleteWebhook: route({
    method: 'DELETE',
    path: routePaths.webhook,
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
    method: 'GET',
    path: routePaths.listDeliveries,
    operationId: 'listDeliveries',
    summary:
      "A webhook's delivery log, newest first: each event's state, attempts, last status and error, next attempt",
    params: WebhookParams,
    querystring: PageQuery,
    responses: { 200: successEnvelope(DeliveriesData) },
  }),
};

import {
  recordedEventOf,
  type Delivery,
  type DeliveryState,
  type Webhook,
  type WebhookEventType,
} from '@canteen-meals/domain';

/** A webhooks row; timestamptz arrives as a Date. */
export interface WebhookRow {
  webhook_id: string;
  url: string;
  events: WebhookEventType[];
  secret: string;
  created_at: Date;
  updated_at: Date;
  failing_since: Date | null;
  disabled_at: Date | null;
}

export const webhookColumnList = [
  'webhook_id',
  'url',
  'events',
  'secret',
  'created_at',
  'updated_at',
  'failing_since',
  'disabled_at',
];
export const webhookColumns = webhookColumnList.join(', ');

/** A webhook_deliveries row without its seq and user. */
export interface DeliveryRow {
  webhook_id: string;
  event_id: string;
  event_type: string;
  occurred_at: Date;
  data: string;
  state: DeliveryState;
  attempts: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_status: number | null;
  last_error: string | null;
  created_at: Date;
}

export const deliveryColumnList = [
  'webhook_id',
  'event_id',
  'event_type',
  'occurred_at',
  'data',
  'state',
  'attempts',
  'next_attempt_at',
  'last_attempt_at',
  'last_status',
  'last_error',
  'created_at',
];
export const deliveryColumns = deliveryColumnList.join(', ');

export function webhookFromRow(row: WebhookRow): Webhook {
  return {
    id: row.webhook_id,
    url: row.url,
    events: row.events,
    secret: row.secret,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    failingSince: row.failing_since,
    disabledAt: row.disabled_at,
  };
}

export function deliveryFromRow(row: DeliveryRow): Delivery {
  return {
    webhookId: row.webhook_id,
    event: recordedEventOf({ id: row.event_id, type: row.event_type, occurredAt: row.occurred_at, data: row.data }),
    state: row.state,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lastAttemptAt: row.last_attempt_at,
    lastStatus: row.last_status,
    lastError: row.last_error,
    createdAt: row.created_at,
  };
}

import {
  recordedEventOf,
  type Delivery,
  type DeliveryState,
  type Webhook,
  type WebhookEventType,
} from '@canteen-meals/domain';

/** A webhooks row. */
export interface WebhookRow {
  webhook_id: string;
  url: string;
  events: string;
  secret: string;
  created_at: number;
  updated_at: number;
  failing_since: number | null;
  disabled_at: number | null;
}

export const webhookColumns = 'webhook_id, url, events, secret, created_at, updated_at, failing_since, disabled_at';

/** A webhook_deliveries row without its seq and user. */
export interface DeliveryRow {
  webhook_id: string;
  event_id: string;
  event_type: string;
  occurred_at: number;
  data: string;
  state: DeliveryState;
  attempts: number;
  next_attempt_at: number | null;
  last_attempt_at: number | null;
  last_status: number | null;
  last_error: string | null;
  created_at: number;
}

export const deliveryColumns =
  'webhook_id, event_id, event_type, occurred_at, data, state, attempts, next_attempt_at, last_attempt_at, last_status, last_error, created_at';

const instant = (ms: number | null) => (ms === null ? null : new Date(ms));

export function webhookFromRow(row: WebhookRow): Webhook {
  return {
    id: row.webhook_id,
    url: row.url,
    events: JSON.parse(row.events) as WebhookEventType[],
    secret: row.secret,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    failingSince: instant(row.failing_since),
    disabledAt: instant(row.disabled_at),
  };
}

export function deliveryFromRow(row: DeliveryRow): Delivery {
  return {
    webhookId: row.webhook_id,
    event: recordedEventOf({
      id: row.event_id,
      type: row.event_type,
      occurredAt: new Date(row.occurred_at),
      data: row.data,
    }),
    state: row.state,
    attempts: row.attempts,
    nextAttemptAt: instant(row.next_attempt_at),
    lastAttemptAt: instant(row.last_attempt_at),
    lastStatus: row.last_status,
    lastError: row.last_error,
    createdAt: new Date(row.created_at),
  };
}

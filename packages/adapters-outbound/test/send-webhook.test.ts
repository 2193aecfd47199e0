import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendWebhook, type WebhookMessage } from '../src/index.js';
import { deferred, startTestServer, streamBytes, type TestServer } from './support/test-server.js';

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const allowed = { allowPrivateNetworks: true, timeoutMs: 2_000 };

interface Received {
  readonly method: string | undefined;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

let receiver: TestServer;
let received: Received[] = [];
const hung = deferred<void>();

beforeAll(async () => {
  const record = async (request: IncomingMessage) => {
    received.push({ method: request.method, headers: request.headers, body: await bodyOf(request) });
  };
  receiver = await startTestServer({
    '/ok': async (request, response) => {
      await record(request);
      response.writeHead(200).end('thanks');
    },
    '/no-content': async (request, response) => {
      await record(request);
      response.writeHead(204).end();
    },
    '/broken': async (request, response) => {
      await record(request);
      response.writeHead(500).end('stack trace of the receiver');
    },
    '/moved': async (request, response) => {
      await record(request);
      response.writeHead(301, { location: receiver.url('/ok') }).end();
    },
    '/hangs': async (request) => {
      await record(request);
      await hung.promise;
    },
    '/talks-a-lot': async (request, response) => {
      await record(request);
      response.writeHead(200);
      const streamed = await streamBytes(response, 50 * 1024 * 1024);
      received.push({ method: 'streamed', headers: {}, body: JSON.stringify(streamed) });
    },
  });
});
afterAll(async () => {
  hung.resolve();
  await receiver.close();
});

const message = (path: string, overrides: Partial<WebhookMessage> = {}): WebhookMessage => ({
  url: receiver.url(path),
  id: 'evt_0f3b8e6d2a4c4b9e8f1d7a6c5b4e3d2f',
  body: JSON.stringify({ type: 'meal.withdrawn', timestamp: '2026-09-01T08:00:00.000Z', data: { meal_id: 42 } }),
  secret,
  ...overrides,
});

describe('sendWebhook: one signed POST', () => {
  it('sends the body as JSON with the Standard Webhooks headers, and a 2xx is delivered', async () => {
    received = [];
    const at = new Date();
    const sent = message('/ok');

    expect(await sendWebhook(sent, { ...allowed, now: () => at })).toEqual({ delivered: true, status: 200 });

    const [request] = received;
    expect(request).toMatchObject({ method: 'POST', body: sent.body });
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      'webhook-id': sent.id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    });
  });

  it('signs "id.timestamp.body" with HMAC-SHA256 keyed by the decoded secret: the library and a plain HMAC agree', async () => {
    received = [];
    await sendWebhook(message('/ok'), allowed);
    const { headers, body } = received[0]!;

    const signed = `${String(headers['webhook-id'])}.${String(headers['webhook-timestamp'])}.${body}`;
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    expect(headers['webhook-signature']).toBe(`v1,${createHmac('sha256', key).update(signed).digest('base64')}`);
    expect(new Webhook(secret).verify(body, headers as Record<string, string>)).toEqual(JSON.parse(body));
    expect(() =>
      new Webhook('whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA').verify(body, headers as Record<string, string>),
    ).toThrow(/No matching signature/);
  });

  it('takes any 2xx as delivered', async () => {
    expect(await sendWebhook(message('/no-content'), allowed)).toEqual({ delivered: true, status: 204 });
  });

  it("takes a 5xx as failed with its status, and never keeps the receiver's body", async () => {
    expect(await sendWebhook(message('/broken'), allowed)).toEqual({
      delivered: false,
      status: 500,
      error: 'HTTP 500',
    });
  });

  it('does not follow a redirect: a 3xx is a failure, and the target gets nothing', async () => {
    received = [];
    const outcome = await sendWebhook(message('/moved'), allowed);

    expect(outcome).toEqual({ delivered: false, status: 301, error: 'HTTP 301 (redirects are not followed)' });
    expect(received).toHaveLength(1);
  });

  it('gives up on a receiver that does not answer within the timeout, and says it timed out (the worker backs off)', async () => {
    const outcome = await sendWebhook(message('/hangs'), { ...allowed, timeoutMs: 200 });

    expect(outcome).toEqual({ delivered: false, status: null, error: 'no answer within 200 ms', timedOut: true });
  });

  it('reads a few KiB of a long answer and closes the connection', async () => {
    received = [];
    const outcome = await sendWebhook(message('/talks-a-lot'), { ...allowed, maxResponseBytes: 4096 });

    expect(outcome).toEqual({ delivered: true, status: 200 });
    await expect.poll(() => received.find((request) => request.method === 'streamed')).toBeDefined();
    const streamed = JSON.parse(received.find((request) => request.method === 'streamed')!.body) as {
      finished: boolean;
    };
    expect(streamed.finished).toBe(false);
  });

  it('refuses a private address unless allowed, without connecting', async () => {
    const before = receiver.connections();

    const outcome = await sendWebhook(message('/ok'), { timeoutMs: 2_000 });

    expect(outcome).toEqual({
      delivered: false,
      status: null,
      error: 'the host is not on the public internet (OUTBOUND_ALLOW_PRIVATE_NETWORKS=1 allows it)',
    });
    expect(receiver.connections()).toBe(before);
  });

  it('reports a refused connection and a URL it cannot send to, without throwing', async () => {
    const closed = await startTestServer({});
    const url = closed.url('/gone');
    await closed.close();

    expect(await sendWebhook(message('/', { url }), allowed)).toEqual({
      delivered: false,
      status: null,
      error: 'connection refused',
    });
    expect(await sendWebhook(message('/', { url: 'ftp://example.com/x' }), allowed)).toMatchObject({
      delivered: false,
      status: null,
      error: 'the scheme ftp: is not allowed (http and https only)',
    });
  });
});

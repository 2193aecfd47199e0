import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createHmacTokenVerifier } from '../src/index.js';
import { securityHeaders } from '../src/security-headers.js';
import { buildTestApp, secret } from './app-fixture.js';
import { buildAppWith } from './app-with.js';
import { holdMarkings } from './hold-markings.js';

interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Sends these bytes on a new connection and reads everything until the server closes it. */
async function exchange(app: FastifyInstance, bytes: string): Promise<RawAnswer> {
  const { port } = app.server.address() as AddressInfo;
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  // The server may close the socket while it still sends (an oversized request): that is its answer.
  socket.on('error', () => {});
  socket.write(bytes);
  await closed;
  return parse(received);
}

function parse(raw: string): RawAnswer {
  const end = raw.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = raw.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: raw.slice(end + 4) };
}

function expectEnvelope(answer: RawAnswer, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(JSON.parse(answer.body)).toEqual({ status: 'error', error: { code, message: expect.any(String) } });
  expect(answer.headers).toMatchObject(securityHeaders());
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
}

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function listening(app: FastifyInstance) {
  apps.push(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

describe("Node's client errors", () => {
  it.each([
    ['a malformed header', 'GET /healthz HTTP/1.1\r\nhost: localhost\r\nbad header: x\r\n\r\n'],
    [
      'Content-Length together with Transfer-Encoding',
      'POST /api/v1/mark-meal HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\n' +
        'content-length: 5\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n',
    ],
    ['a request line that is not HTTP', 'HELLO\r\n\r\n'],
  ])('answer %s with 400 invalid_request in the envelope, with the security headers, and close', async (_name, bytes) => {
    const { app } = await buildTestApp({ docs: false });
    const answer = await exchange(await listening(app), bytes);
    expectEnvelope(answer, 400, 'invalid_request');
    expect(answer.headers.connection).toBe('close');
  });

  it('answer headers over the limit with 431 headers_too_large', async () => {
    const { app } = await buildTestApp({ docs: false });
    const answer = await exchange(
      await listening(app),
      `GET /healthz HTTP/1.1\r\nhost: localhost\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expectEnvelope(answer, 431, 'headers_too_large');
    expect(answer.headers.connection).toBe('close');
  });

  it('answer a request whose headers do not arrive in time with 408 request_timeout', async () => {
    const { app } = await buildAppWith({
      verifyToken: createHmacTokenVerifier({ secret }),
      docs: false,
      timeouts: { requestMs: 40, headersMs: 20, keepAliveMs: 1_000, connectionIdleMs: 0 },
    });
    // The headers never end: the server's own deadline answers.
    const answer = await exchange(await listening(app), 'GET /healthz HTTP/1.1\r\nhost: localhost\r\n');
    expectEnvelope(answer, 408, 'request_timeout');
    expect(answer.headers.connection).toBe('close');
  });
});

describe('a URL the router cannot decode', () => {
  it.each([
    '/api/v1/meals/%ZZ',
    '/api/v1/meals/%',
    '/api/v1/meals/%E0%A4%A',
  ])('answers %s with 400 invalid_url, without echoing it', async (url) => {
    const { app } = await buildTestApp({ docs: false });
    apps.push(app);
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 'error', error: { code: 'invalid_url', message: expect.any(String) } });
    expect(response.body).not.toContain('%');
    expect(response.body).not.toContain('meals');
    expect(response.headers).toMatchObject(securityHeaders());
  });
});

describe('closing', () => {
  it('refuses a request that arrives while closing with 503 service_unavailable, with the security headers', async () => {
    const { app, adapters, token } = await buildTestApp({ docs: false });
    const { inHandler, release } = holdMarkings(adapters);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const body = JSON.stringify({ meal_id: 1, marked: true });
    const busy = connect(port, '127.0.0.1');
    busy.on('data', () => {});
    busy.write(
      `POST /api/v1/mark-meal HTTP/1.1\r\nhost: localhost\r\nauthorization: Bearer ${token()}\r\n` +
        `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await inHandler;

    // A second connection has begun its request (so it is not idle) when the close begins; it ends it afterwards.
    const late = connect(port, '127.0.0.1');
    let received = '';
    late.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    const lateClosed = new Promise<void>((resolve) => late.on('close', () => resolve()));
    await new Promise<void>((resolve) => late.write('GET /healthz HTTP/1.1\r\n', () => resolve()));
    // Fastify closes its server after the preClose hooks ran: from then on the app is closing.
    const closeServer = app.server.close.bind(app.server);
    const closing = new Promise<void>((resolve) => {
      app.server.close = (callback) => {
        resolve();
        return closeServer(callback);
      };
    });
    const closed = app.close();
    await closing;
    late.write('host: localhost\r\n\r\n');
    await lateClosed;
    release();
    await closed;
    busy.destroy();

    const answer = parse(received);
    expectEnvelope(answer, 503, 'service_unavailable');
    expect(answer.headers.connection).toBe('close');
  });
});

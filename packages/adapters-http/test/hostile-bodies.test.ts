import { connect, type AddressInfo, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { adminScope, buildMetricsApp } from '../src/index.js';
import { maxJsonDepth } from '../src/json-body.js';
import { maxDiscardedBodyBytes } from '../src/limits/request-bodies.js';
import { buildTestApp, secret, type TestApp } from './app-fixture.js';
import { concreteUrl, registeredRoutes } from './route-table.js';
import { buildAppWith } from './app-with.js';
import { createHmacTokenVerifier, signHmacToken } from '../src/index.js';

const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const mebibyte = 1024 * 1024;

/** The bodies of the red-team pass: nested 10,000 deep (the walk overflowed: 500), and large ones (read and parsed). */
const hostileBodies: readonly [string, string][] = [
  ['an array nested 10,000 deep', deepArray(10_000)],
  ['an object nested 10,000 deep', deepObject(10_000)],
  ['an array nested 100,000 deep', deepArray(100_000)],
  ['1 MiB of JSON', JSON.stringify({ meals: [] }).padEnd(mebibyte - 1, ' ')],
  ['2 MiB of JSON', JSON.stringify({ meals: [] }).padEnd(2 * mebibyte, ' ')],
];

describe('hostile bodies on every route', () => {
  let fixture: TestApp;
  beforeAll(async () => {
    fixture = await buildTestApp();
  });
  afterAll(() => fixture.app.close());

  it('never answer 5xx: every registered route and an unknown one, with and without a token, always the envelope', async () => {
    const routes = [...registeredRoutes(fixture.app), ['POST', '/nowhere'], ['PUT', '/api/v1/nowhere']] as [
      string,
      string,
    ][];
    expect(routes.length).toBeGreaterThan(30);
    const admin = `Bearer ${fixture.token({ scope: adminScope })}`;
    let requests = 0;
    for (const [method, path] of routes) {
      if (method === 'HEAD') continue;
      for (const [name, payload] of hostileBodies) {
        for (const authorization of [admin, undefined]) {
          const response = await fixture.app.inject({
            method: method as 'POST',
            url: concreteUrl(path),
            headers: { 'content-type': 'application/json', ...(authorization === undefined ? {} : { authorization }) },
            payload,
          });
          requests++;
          const where = `${method} ${path} with ${name}${authorization === undefined ? '' : ' and a token'}`;
          expect(response.statusCode, where).toBeLessThan(500);
          expect(response.statusCode, where).toBeGreaterThanOrEqual(400);
          expect(response.json(), where).toEqual({
            status: 'error',
            error: { code: expect.any(String), message: expect.any(String) },
          });
        }
      }
    }
    expect(requests).toBeGreaterThan(300);
  });

  it('never answer 5xx on the separate metrics port either', async () => {
    const metricsApp = await buildMetricsApp({ metrics: { contentType: 'text/plain', render: async () => 'up 1\n' } });
    try {
      for (const [method, url] of [
        ['GET', '/metrics'],
        ['POST', '/metrics'],
        ['POST', '/nowhere'],
      ] as const) {
        for (const [name, payload] of hostileBodies) {
          const response = await metricsApp.inject({
            method,
            url,
            headers: { 'content-type': 'application/json' },
            payload,
          });
          expect([method, url, name, response.statusCode]).toEqual([method, url, name, method === 'GET' ? 413 : 404]);
        }
      }
    } finally {
      await metricsApp.close();
    }
  });

  it('refuse nesting past the bound as invalid_json before parsing, and take nesting up to it', async () => {
    const send = (payload: string) =>
      fixture.app.inject({
        method: 'PUT',
        url: '/api/v1/admin/meals',
        headers: {
          authorization: `Bearer ${fixture.token({ scope: adminScope })}`,
          'content-type': 'application/json',
        },
        payload,
      });
    // 64 levels in all: the document, then a field holding 63 arrays. The schema refuses it; the JSON reader does not.
    const atTheBound = `{"meals":${deepArray(maxJsonDepth - 1)}}`;
    const pastTheBound = `{"meals":${deepArray(maxJsonDepth)}}`;
    expect((await send(atTheBound)).json().error.code).toBe('invalid_request');
    const refused = await send(pastTheBound);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toEqual({
      code: 'invalid_json',
      message: `The body is not JSON we accept: it nests deeper than ${maxJsonDepth} levels.`,
    });
    // Brackets inside strings are text, not nesting.
    const inText = JSON.stringify({
      meals: [{ meal_id: 9, name: '['.repeat(200), served_at: '2026-03-10T11:00:00Z', rateable: true }],
    });
    expect((await send(inText)).statusCode).toBe(200);
  });

  it('refuse a body on a route that takes none with 413, and on an unknown route with 404', async () => {
    const token = `Bearer ${fixture.token()}`;
    const withBody = (method: 'GET' | 'DELETE' | 'POST', url: string, authorization?: string) =>
      fixture.app.inject({
        method,
        url,
        headers: { 'content-type': 'application/json', ...(authorization === undefined ? {} : { authorization }) },
        payload: '{}',
      });
    for (const [method, url] of [
      ['GET', '/healthz'],
      ['GET', '/api/v1/marked-meals'],
      ['DELETE', '/api/v1/admin/meals/1'],
    ] as const) {
      const response = await withBody(method, url, `Bearer ${fixture.token({ scope: adminScope })}`);
      expect([url, response.statusCode, response.json().error.code]).toEqual([url, 413, 'payload_too_large']);
    }
    // The token checks come first: an anonymous caller learns nothing about the body.
    expect((await withBody('GET', '/api/v1/marked-meals')).statusCode).toBe(401);
    const unknown = await withBody('POST', '/nowhere', token);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toEqual({ code: 'not_found', message: 'No route POST /nowhere.' });
    // No body at all, or an empty one, is still fine.
    const empty = await fixture.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'content-type': 'application/json', 'content-length': '0' },
    });
    expect(empty.statusCode).toBe(200);
  });

  it('refuse unknown fields in the body of DELETE /me/data, and take none or {}', async () => {
    const erase = (payload?: string) =>
      fixture.app.inject({
        method: 'DELETE',
        url: '/api/v1/me/data',
        headers: {
          authorization: `Bearer ${fixture.token()}`,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(payload === undefined ? {} : { payload }),
      });
    await fixture.adapters.markings.setMarked('alice', 1, true);
    const withField = await erase('{"confirm":true}');
    expect(withField.statusCode).toBe(400);
    expect(withField.json().error).toEqual({ code: 'invalid_request', message: 'unknown field "confirm"' });
    expect((await erase('[]')).json().error).toEqual({
      code: 'invalid_request',
      message: 'the body must be an object',
    });
    // Nothing was erased by the refused requests.
    expect(fixture.adapters.db.markings.size).toBe(1);
    expect((await erase('{}')).json()).toEqual({
      status: 'success',
      data: { markings_erased: 1, ratings_erased: 0, preferences_erased: 0, aversions_erased: 0 },
    });
    expect((await erase()).statusCode).toBe(200);
  });
});

describe('bodies on a real socket', () => {
  const verifyToken = createHmacTokenVerifier({ secret });
  const bearer = `Bearer ${signHmacToken(secret, { sub: 'alice' })}`;
  let app: FastifyInstance | undefined;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await app?.close();
    app = undefined;
  });

  async function listening(): Promise<number> {
    app = (await buildAppWith({ verifyToken })).app;
    await app.listen({ port: 0, host: '127.0.0.1' });
    return (app.server.address() as AddressInfo).port;
  }

  /** A raw connection and the text it has received so far; `answers(n)` resolves once n complete answers arrived. */
  function rawConnection(port: number) {
    const socket: Socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    let received = '';
    const errors: string[] = [];
    let closed = false;
    let wake = () => {};
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      received += chunk;
      wake();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message));
    socket.on('close', () => {
      closed = true;
      wake();
    });
    const answers = async (count: number) => {
      while ((received.match(/HTTP\/1\.1 \d{3}/g) ?? []).length < count || !lastAnswerComplete(received)) {
        if (closed) break;
        await new Promise<void>((resolve) => (wake = resolve));
      }
      return received;
    };
    return { socket, answers, errors, isClosed: () => closed };
  }

  it('answer a body on a route that takes none, and on no route, before a byte of it arrives', async () => {
    const port = await listening();
    for (const [head, status] of [
      [`GET /api/v1/marked-meals HTTP/1.1\r\nHost: x\r\nAuthorization: ${bearer}\r\n`, 413],
      ['GET /healthz HTTP/1.1\r\nHost: x\r\n', 413],
      ['POST /nowhere HTTP/1.1\r\nHost: x\r\n', 404],
    ] as const) {
      const connection = rawConnection(port);
      // The body is announced, never sent: an answer proves the server did not wait to read it.
      connection.socket.write(`${head}Content-Type: application/json\r\nContent-Length: ${mebibyte}\r\n\r\n`);
      const answer = await connection.answers(1);
      expect(answer.split('\r\n')[0]).toBe(`HTTP/1.1 ${status} ${status === 413 ? 'Payload Too Large' : 'Not Found'}`);
      connection.socket.destroy();
    }
  });

  it('read and drop the rest of a refused body, then serve the next request on the same connection', async () => {
    const port = await listening();
    const connection = rawConnection(port);
    const size = 2 * mebibyte;
    connection.socket.write(
      `POST /api/v1/rate-meal HTTP/1.1\r\nHost: x\r\nAuthorization: ${bearer}\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`,
    );
    // The 413 comes at once, from the announced length; the client only then sends its body, as a slow one does.
    expect((await connection.answers(1)).split('\r\n')[0]).toBe('HTTP/1.1 413 Payload Too Large');
    const chunk = ' '.repeat(64 * 1024);
    for (let sent = 0; sent < size && !connection.isClosed(); sent += chunk.length) {
      if (!connection.socket.write(chunk))
        await new Promise((resolve) => connection.socket.once('drain', resolve).once('close', resolve));
    }
    connection.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    const both = await connection.answers(2);
    expect(connection.errors).toEqual([]);
    expect(both.match(/HTTP\/1\.1 \d{3} [A-Za-z ]+/g)).toEqual(['HTTP/1.1 413 Payload Too Large', 'HTTP/1.1 200 OK']);
    connection.socket.destroy();
  });

  it('close the connection once a refused body grows past the bound', async () => {
    const port = await listening();
    const connection = rawConnection(port);
    connection.socket.write(
      `POST /nowhere HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    expect((await connection.answers(1)).split('\r\n')[0]).toBe('HTTP/1.1 404 Not Found');
    const piece = 64 * 1024;
    const chunk = `${piece.toString(16)}\r\n${' '.repeat(piece)}\r\n`;
    let sent = 0;
    while (!connection.isClosed() && sent <= 2 * maxDiscardedBodyBytes) {
      sent += piece;
      const flushed = connection.socket.write(chunk);
      if (!flushed) await new Promise((resolve) => connection.socket.once('drain', resolve).once('close', resolve));
    }
    await connection.answers(2);
    expect(connection.isClosed()).toBe(true);
    expect(sent).toBeGreaterThan(maxDiscardedBodyBytes);
  });

  it('give fetch() its 413 for a body over the limit, announced or streamed, instead of a network error', async () => {
    const port = await listening();
    const size = 2 * mebibyte;
    const spaces = new Uint8Array(64 * 1024).fill(0x20);
    const streamed = () => {
      let sent = 0;
      return new ReadableStream<Uint8Array>({
        // One piece per macrotask: the client is still sending while the server answers and would close.
        async pull(controller) {
          await new Promise((resolve) => setImmediate(resolve));
          if (sent >= size) return controller.close();
          sent += spaces.length;
          controller.enqueue(spaces);
        },
      });
    };
    const bodies: [string, () => Uint8Array | ReadableStream<Uint8Array>][] = [
      ['announced', () => new Uint8Array(size).fill(0x20)],
      ['streamed', streamed],
    ];
    for (const [name, body] of bodies) {
      for (let attempt = 0; attempt < 5; attempt++) {
        const response = await fetch(`http://127.0.0.1:${port}/api/v1/rate-meal`, {
          method: 'POST',
          headers: { authorization: bearer, 'content-type': 'application/json' },
          body: body(),
          duplex: 'half',
        } as RequestInit);
        expect([name, response.status]).toEqual([name, 413]);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
      }
    }
  });
});

/** Whether the last answer in the text has its whole body (every answer here has a Content-Length). */
function lastAnswerComplete(text: string): boolean {
  const start = text.lastIndexOf('HTTP/1.1 ');
  const headEnd = text.indexOf('\r\n\r\n', start);
  if (start < 0 || headEnd < 0) return false;
  const length = /\r\ncontent-length: (\d+)/i.exec(text.slice(start, headEnd));
  return length === null || Buffer.byteLength(text.slice(headEnd + 4)) >= Number(length[1]);
}

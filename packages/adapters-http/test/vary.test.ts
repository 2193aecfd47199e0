import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmacTokenVerifier, signHmacToken } from '../src/index.js';
import { varyOn } from '../src/vary.js';
import { secret } from './app-fixture.js';
import { buildAppWith } from './app-with.js';

const fieldsOf = (vary: unknown) =>
  String(vary ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');

describe('varyOn', () => {
  const app = Fastify();
  beforeAll(() => {
    // Each route: what another part of the app put in Vary before, then the route's own field.
    const routes: Record<string, string | undefined> = {
      none: undefined,
      origin: 'Origin',
      same: 'Origin, Authorization',
      any: '*',
    };
    for (const [name, before] of Object.entries(routes)) {
      app.get(`/${name}`, (_request, reply) => {
        if (before !== undefined) reply.header('vary', before);
        return varyOn(reply, 'authorization').send('');
      });
    }
  });
  afterAll(() => app.close());

  it('adds the field after what is there, once, and leaves `*` alone', async () => {
    const vary = async (name: string) => (await app.inject({ method: 'GET', url: `/${name}` })).headers.vary;
    expect(await vary('none')).toBe('authorization');
    expect(await vary('origin')).toBe('Origin, authorization');
    expect(await vary('same')).toBe('Origin, Authorization');
    expect(await vary('any')).toBe('*');
  });
});

describe("Vary with CORS on: every answer that CORS gave an origin keeps Origin beside the route's own field", () => {
  let app: FastifyInstance;
  const origin = 'https://app.example.com';
  const bearer = `Bearer ${signHmacToken(secret, { sub: 'alice' })}`;

  beforeAll(async () => {
    ({ app } = await buildAppWith({ verifyToken: createHmacTokenVerifier({ secret }), corsOrigins: [origin] }));
  });
  afterAll(() => app.close());

  it('the menu, its personal part, a meal and a dish, with and without a token', async () => {
    const search = await app.inject({ method: 'GET', url: '/api/v1/canteens/default/dishes?q=open' });
    const dish = search.json().data.dishes[0].dish_id as number;
    const urls = ['/api/v1/meals?canteen=default&date=2026-03-10', '/api/v1/meals/1', `/api/v1/dishes/${dish}`];
    const reads = [
      ...urls.flatMap((url) => [
        { url, authorization: undefined },
        { url, authorization: bearer },
      ]),
      { url: '/api/v1/me/meals?canteen=default&date=2026-03-10', authorization: bearer },
    ];
    for (const { url, authorization } of reads) {
      const headers = { origin, ...(authorization === undefined ? {} : { authorization }) };
      const response = await app.inject({ method: 'GET', url, headers });
      const read = `${url} ${authorization === undefined ? 'without' : 'with'} a token`;
      expect([read, response.statusCode]).toEqual([read, 200]);
      expect([read, response.headers['access-control-allow-origin']]).toEqual([read, origin]);
      // Without Origin a shared cache could hand this answer, with its Access-Control-Allow-Origin, to another site;
      // Accept-Encoding: every GET's answer may go out compressed (compression.ts).
      expect([read, fieldsOf(response.headers.vary)]).toEqual([read, ['origin', 'authorization', 'accept-encoding']]);
    }
  });
});

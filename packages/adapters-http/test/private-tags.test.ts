import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createHmacTokenVerifier, signHmacToken } from '../src/index.js';
import { createPrivateTags } from '../src/routes/private-tags.js';
import { secret } from './app-fixture.js';
import { buildAppWith } from './app-with.js';

const overlay = '/api/v1/me/meals?canteen=default&date=2026-03-10';
const bearer = `Bearer ${signHmacToken(secret, { sub: 'alice' })}`;
const opened: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of opened.splice(0)) await app.close();
});

/** Alice's overlay of today's menu (she marked meal 1) from an app keyed by this cursor secret. */
async function overlayWith(cursorSecret: string | undefined) {
  const { app } = await buildAppWith({ verifyToken: createHmacTokenVerifier({ secret }), cursorSecret });
  opened.push(app);
  const headers = { authorization: bearer };
  await app.inject({ method: 'POST', url: '/api/v1/mark-meal', headers, payload: { meal_id: 1, marked: true } });
  const response = await app.inject({ method: 'GET', url: overlay, headers });
  expect(response.statusCode).toBe(200);
  return { tag: String(response.headers.etag), body: response.body };
}

describe('the ETag of GET /me/meals', () => {
  it('is a MAC keyed by the server: no hash of a guessed body gives it, and the instances sharing the secret agree', async () => {
    const cursorSecret = 'cursor-secret-of-at-least-32-bytes-long!';
    const first = await overlayWith(cursorSecret);
    expect(first.body).toBe(
      '{"status":"success","data":{"meals":[{"meal_id":1,"marked":true,"rating_personal":null}]}}',
    );
    // Whoever sees the tag and guesses the body cannot check the guess with a hash of it.
    for (const algorithm of ['sha1', 'sha256', 'md5']) {
      for (const encoding of ['base64url', 'base64', 'hex'] as const) {
        const digest = createHash(algorithm).update(first.body).digest(encoding);
        expect(first.tag).not.toContain(digest.slice(0, 16));
      }
    }
    expect((await overlayWith(cursorSecret)).tag).toBe(first.tag);
    expect((await overlayWith('another-secret-of-at-least-32-bytes-long')).tag).not.toBe(first.tag);
    // Without a secret, each process keys its own.
    expect((await overlayWith(undefined)).tag).not.toBe((await overlayWith(undefined)).tag);
  });

  it('changes with the body and only with it', () => {
    const tagOf = createPrivateTags('cursor-secret-of-at-least-32-bytes-long!');
    expect(tagOf('{"a":1}')).toBe(tagOf('{"a":1}'));
    expect(tagOf('{"a":1}')).not.toBe(tagOf('{"a":2}'));
    expect(tagOf('{"a":1}')).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
  });
});

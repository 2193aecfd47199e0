import { probeThrough } from '@canteen-meals/repository-contract';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from './app-fixture.js';
import { holdMarkings } from './hold-markings.js';

describe('closing', () => {
  it('lets a request in flight finish, then closes its connection before reading another', async () => {
    const { app, adapters, token } = await buildTestApp();
    const { inHandler, release } = holdMarkings(adapters);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;

    const request = (mealId: number) => {
      const body = JSON.stringify({ meal_id: mealId, marked: true });
      return (
        `POST /api/v1/mark-meal HTTP/1.1\r\nhost: localhost\r\nauthorization: Bearer ${token()}\r\n` +
        `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
      );
    };
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(request(1));

    await inHandler;
    const closed = app.close();
    // The connection is busy, so closing keeps it open; this request arrives after the close began.
    socket.write(request(2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await closed;
    await ended;

    const statuses = [...received.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((match) => match[1]);
    expect(statuses).toEqual(['200']);
    expect(received).toMatch(/^connection: close\r$/im);
    expect(await probeThrough(() => adapters.queries).marked('alice', 1)).toBe(true);
    expect(await probeThrough(() => adapters.queries).marked('alice', 2)).toBe(false);
  });
});

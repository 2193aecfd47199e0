import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../support/server-process.js';
import { inspectDatabaseFile, ratingKey } from './support/database-file.js';
import { reportFigures } from './support/figures.js';
import { RawConnection, requestHead, type RawResponse } from './support/raw-http.js';
import { seedOpenMeals, serverEnv, userToken } from './support/reliability-server.js';

const inFlightCount = 50;
/** Of those, how many also pipeline a second request behind the first once the shutdown began. */
const pipelinedCount = 10;
const maxProbes = 200;
const mealId = 1;

const folder = mkdtempSync(join(tmpdir(), 'meals-shutdown-'));
const databasePath = join(folder, 'meals.db');
const running: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((server) => server.stop('SIGKILL')));
  rmSync(folder, { recursive: true, force: true });
});

const rateBody = (rating: number) => JSON.stringify({ meal_id: mealId, rating });
const rateHead = (user: string, body: string, extra: Record<string, string> = {}) =>
  requestHead('POST', '/api/v1/rate-meal', {
    authorization: `Bearer ${userToken(user)}`,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    ...extra,
  });

function expectRefusal(response: RawResponse) {
  expect(response.status).toBe(503);
  expect(JSON.parse(response.body)).toEqual({
    status: 'error',
    error: { code: 'service_unavailable', message: expect.any(String) },
  });
}

describe('graceful shutdown of the real process', () => {
  it(
    'finishes every request in flight at SIGTERM with 200, refuses new ones, exits 0',
    { timeout: 60_000 },
    async () => {
      const server = await startServer(serverEnv(databasePath));
      running.push(server);
      await seedOpenMeals(server.url, [mealId]);
      const port = Number(new URL(server.url).port);

      // A kept-alive connection that served one request and now sits idle.
      const idle = await RawConnection.open(port);
      const warmUpBody = rateBody(3);
      idle.write(rateHead('idle-user', warmUpBody) + warmUpBody);
      expect((await idle.next())?.status).toBe(200);

      // Requests in flight, provably: the server answered "100 Continue", so it has parsed their headers, run the
      // authentication and is waiting for the bodies, which are sent only after the shutdown began.
      const inFlight = await Promise.all(
        Array.from({ length: inFlightCount }, async (_, index) => {
          const connection = await RawConnection.open(port);
          const user = `in-flight-${index}`;
          const rating = (index % 5) + 1;
          const body = rateBody(rating);
          connection.write(rateHead(user, body, { expect: '100-continue' }));
          const interim = await connection.next();
          expect(interim?.status).toBe(100);
          return { connection, user, rating, body };
        }),
      );

      const exited = server.stop('SIGTERM');
      // New connections are refused once the listener is closed; until then a late request may be served or
      // refused, and it may lose its connection (it was sent after the signal).
      const probes = { served: 0, refusedInEnvelope: 0, connectionLost: 0, connectionRefused: 0 };
      const servedProbes: string[] = [];
      for (let attempt = 0; attempt < maxProbes && probes.connectionRefused === 0; attempt++) {
        let connection: RawConnection;
        try {
          connection = await RawConnection.open(port);
        } catch (error) {
          expect((error as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
          probes.connectionRefused += 1;
          break;
        }
        const body = rateBody(2);
        connection.write(rateHead(`late-${attempt}`, body) + body);
        const answer = await connection.next();
        connection.destroy();
        if (answer === undefined) probes.connectionLost += 1;
        else if (answer.status === 200) {
          probes.served += 1;
          servedProbes.push(`late-${attempt}`);
        } else {
          expectRefusal(answer);
          probes.refusedInEnvelope += 1;
        }
        await delay(5);
      }
      expect(probes.connectionRefused, 'the listener closed after SIGTERM').toBe(1);

      // The idle kept-alive connection is closed by the server, not left to time out.
      await idle.closed;

      // Now the bodies: every request that was in flight at the signal completes.
      for (const [index, request] of inFlight.entries()) {
        request.connection.write(request.body);
        if (index < pipelinedCount) {
          const late = rateBody(1);
          request.connection.write(rateHead(`pipelined-${index}`, late) + late);
        }
      }
      const pipelinedAnswers = { refusedInEnvelope: 0, dropped: 0 };
      for (const [index, { connection, rating }] of inFlight.entries()) {
        const answer = await connection.next();
        expect(answer?.status, `in-flight request ${index}`).toBe(200);
        expect(JSON.parse(answer!.body)).toMatchObject({ status: 'success', data: { rating_personal: rating } });
        expect(answer!.headers.connection).toBe('close');
        if (index < pipelinedCount) {
          // A request behind it on the same connection arrived during the shutdown: refused, never served.
          const second = await connection.next();
          if (second === undefined) pipelinedAnswers.dropped += 1;
          else {
            expectRefusal(second);
            pipelinedAnswers.refusedInEnvelope += 1;
          }
        }
        await connection.closed;
      }

      expect(await exited).toBe(0);
      await expect(RawConnection.open(port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });

      const snapshot = inspectDatabaseFile(databasePath);
      expect(snapshot.integrity).toBe('ok');
      for (const { user, rating } of inFlight) expect(snapshot.ratings.get(ratingKey(mealId, user))).toBe(rating);
      for (const user of servedProbes) expect(snapshot.ratings.get(ratingKey(mealId, user))).toBe(2);
      for (let index = 0; index < pipelinedCount; index++) {
        expect(snapshot.ratings.has(ratingKey(mealId, `pipelined-${index}`))).toBe(false);
      }
      expect(snapshot.histograms.get(mealId)?.stored).toEqual(snapshot.histograms.get(mealId)?.recounted);
      reportFigures('graceful shutdown', {
        inFlightAtSigterm: inFlightCount,
        completedWith200: inFlightCount,
        lateProbesServed: probes.served,
        lateProbesRefusedInEnvelope: probes.refusedInEnvelope,
        lateProbesConnectionLost: probes.connectionLost,
        pipelinedRefusedInEnvelope: pipelinedAnswers.refusedInEnvelope,
        pipelinedDropped: pipelinedAnswers.dropped,
      });
    },
  );
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../support/server-process.js';
import { inspectDatabaseFile, ratingKey, type DatabaseSnapshot } from './support/database-file.js';
import { reportFigures } from './support/figures.js';
import { keepAliveAgent, rateMeal } from './support/http-client.js';
import { loadSeed, ratingChoices, seededRandom, type RatingChoice } from './support/random.js';
import { seedOpenMeals, serverEnv, userToken } from './support/reliability-server.js';

const kills = 5;
const clientLoops = 8;
const usersPerLoop = 5;
const mealIds = [1, 2, 3];
/** Each round is killed after this many acknowledged answers, drawn from the seed. */
const acknowledgedBeforeKill = { min: 60, max: 160 };
const maxRequestsPerLoopAndRound = 400;

const folder = mkdtempSync(join(tmpdir(), 'meals-crash-'));
const databasePath = join(folder, 'meals.db');
const running: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((server) => server.stop('SIGKILL')));
  rmSync(folder, { recursive: true, force: true });
});

const users = Array.from({ length: clientLoops }, (_, loop) =>
  Array.from({ length: usersPerLoop }, (_, index) => `crash-${loop}-${index}`),
);
const tokens = new Map(users.flat().map((user) => [user, userToken(user)]));
const everyKey = users
  .flat()
  .flatMap((user) => mealIds.map((mealId) => ({ user, mealId, key: ratingKey(mealId, user) })));

describe('crash consistency: SIGKILL under concurrent rating load', () => {
  it(`keeps every acknowledged rating and exact histograms across ${kills} kills`, { timeout: 120_000 }, async () => {
    const seed = loadSeed();
    const random = seededRandom(seed);
    /** The last acknowledged state per (meal, user); absent means no rating. */
    const acknowledged = new Map<string, RatingChoice>();
    const figures = {
      seed,
      kills: 0,
      killsWithNormal: 0,
      killsWithFull: 0,
      acknowledgedRequests: 0,
      inFlightAtKill: 0,
      inFlightLanded: 0,
      keysChecked: 0,
      ratingsPresentChecked: 0,
    };

    for (let round = 1; round <= kills; round++) {
      // Both durability settings keep every commit across a process crash (docs/reliability.md): alternate them.
      const synchronous = round % 2 === 1 ? 'normal' : 'full';
      const server = await startServer(serverEnv(databasePath, { SQLITE_SYNCHRONOUS: synchronous }));
      running.push(server);
      if (round === 1) await seedOpenMeals(server.url, mealIds);
      else await expectServedStateEquals(server, acknowledged);

      const agent = keepAliveAgent(clientLoops);
      const killAfter = random.integer(acknowledgedBeforeKill.min, acknowledgedBeforeKill.max);
      let acknowledgedThisRound = 0;
      let killed = false;
      /** A request that got no answer because of the kill: it may or may not have landed. */
      const inFlight = new Map<string, { before: RatingChoice; after: RatingChoice }>();
      const failures: string[] = [];

      const clientLoop = async (loopUsers: readonly string[]) => {
        for (let step = 0; step < maxRequestsPerLoopAndRound && !killed; step++) {
          const user = random.pick(loopUsers);
          const mealId = random.pick(mealIds);
          const rating = random.pick(ratingChoices);
          const key = ratingKey(mealId, user);
          try {
            const answer = await rateMeal(agent, server.url, tokens.get(user)!, mealId, rating);
            if (answer.status !== 200 || answer.body.data?.rating_personal !== rating) {
              failures.push(`${key} -> ${rating}: ${answer.status} ${JSON.stringify(answer.body)}`);
              return;
            }
            acknowledged.set(key, rating);
            figures.acknowledgedRequests += 1;
            if (++acknowledgedThisRound === killAfter) {
              killed = true;
              server.child.kill('SIGKILL');
            }
          } catch (error) {
            if (!killed) failures.push(`${key} -> ${rating}: no answer before the kill: ${String(error)}`);
            else inFlight.set(key, { before: acknowledged.get(key) ?? null, after: rating });
            return;
          }
        }
      };
      await Promise.all(users.map(clientLoop));
      agent.destroy();
      expect(failures).toEqual([]);
      expect(killed, 'the load reached the kill').toBe(true);
      expect(await server.stop('SIGKILL')).toBeNull(); // killed by the signal, not exited
      figures.kills += 1;
      figures[synchronous === 'normal' ? 'killsWithNormal' : 'killsWithFull'] += 1;
      figures.inFlightAtKill += inFlight.size;

      const snapshot = inspectDatabaseFile(databasePath);
      expect(snapshot.integrity).toBe('ok');
      expectHistogramsMatchRecount(snapshot);
      const unexpected = [...snapshot.ratings.keys()].filter((key) => !everyKey.some((entry) => entry.key === key));
      expect(unexpected).toEqual([]);
      for (const { key } of everyKey) {
        const stored = snapshot.ratings.get(key) ?? null;
        const uncertain = inFlight.get(key);
        if (uncertain === undefined) {
          expect(stored, `acknowledged rating ${key} after kill ${round}`).toBe(acknowledged.get(key) ?? null);
          figures.keysChecked += 1;
          if (stored !== null) figures.ratingsPresentChecked += 1;
        } else {
          expect([uncertain.before, uncertain.after], `in-flight rating ${key} after kill ${round}`).toContain(stored);
          if (stored === uncertain.after && uncertain.after !== uncertain.before) figures.inFlightLanded += 1;
          acknowledged.set(key, stored);
        }
      }
    }

    // The server restarted after the last kill serves exactly the state that survived.
    const last = await startServer(serverEnv(databasePath));
    running.push(last);
    await expectServedStateEquals(last, acknowledged);
    expect(await last.stop('SIGTERM')).toBe(0);
    expect(inspectDatabaseFile(databasePath).integrity).toBe('ok');
    reportFigures('crash consistency', figures);
  });
});

function expectHistogramsMatchRecount(snapshot: DatabaseSnapshot) {
  expect([...snapshot.histograms.keys()].sort()).toEqual(mealIds);
  for (const [mealId, { stored, recounted }] of snapshot.histograms) {
    expect(stored, `histogram of meal ${mealId}`).toEqual(recounted);
  }
}

/**
 * Asks the restarted server, with a request that changes nothing (each meal re-rated by a user with the value the
 * model says it holds), and compares the statistics it answers with the model.
 */
async function expectServedStateEquals(server: ServerProcess, acknowledged: ReadonlyMap<string, RatingChoice>) {
  for (const mealId of mealIds) {
    const ratings = everyKey
      .filter((entry) => entry.mealId === mealId)
      .map((entry) => acknowledged.get(entry.key) ?? null)
      .filter((rating): rating is NonNullable<RatingChoice> => rating !== null);
    const probe = everyKey.find((entry) => entry.mealId === mealId)!;
    const held = acknowledged.get(probe.key) ?? null;
    const answer = await rateMeal(false, server.url, tokens.get(probe.user)!, mealId, held);
    expect(answer.status).toBe(200);
    expect(answer.body.data.rating_personal).toBe(held);
    expect(answer.body.data.rating_count).toBe(ratings.length);
    const sum = ratings.reduce((total, rating) => total + rating, 0);
    expect(answer.body.data.rating_average).toBe(ratings.length === 0 ? null : sum / ratings.length);
  }
}

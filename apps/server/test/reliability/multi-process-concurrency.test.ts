import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../support/server-process.js';
import { inspectDatabaseFile, ratingKey } from './support/database-file.js';
import { reportFigures } from './support/figures.js';
import { keepAliveAgent, rateMeal } from './support/http-client.js';
import { loadSeed, ratingChoices, seededRandom, type RatingChoice } from './support/random.js';
import { seedOpenMeals, serverEnv, userToken } from './support/reliability-server.js';

const serverCount = 3;
const clientLoops = 12;
const requestsPerLoop = 120;
const ownUsersPerLoop = 3;
/** Users that two neighbouring client loops both act for, at the same time, on the same meals. */
const sharedUsers = Array.from({ length: clientLoops / 2 }, (_, index) => `shared-${index}`);
const mealIds = [1, 2, 3];

const folder = mkdtempSync(join(tmpdir(), 'meals-multiprocess-'));
const databasePath = join(folder, 'meals.db');
const running: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((server) => server.stop('SIGKILL')));
  rmSync(folder, { recursive: true, force: true });
});

describe('concurrency: several server processes on one SQLite file', () => {
  it('loses no update and never gives a user two ratings of one meal', { timeout: 120_000 }, async () => {
    const seed = loadSeed();
    const random = seededRandom(seed);
    // Started together, so that they also race on applying the migrations to the new file.
    const servers = await Promise.all(Array.from({ length: serverCount }, () => startServer(serverEnv(databasePath))));
    running.push(...servers);
    await seedOpenMeals(servers[0]!.url, mealIds);

    const loops = Array.from({ length: clientLoops }, (_, loop) => [
      ...Array.from({ length: ownUsersPerLoop }, (_, index) => `own-${loop}-${index}`),
      sharedUsers[Math.floor(loop / 2)]!,
    ]);
    const allUsers = [...new Set(loops.flat())];
    const tokens = new Map(allUsers.map((user) => [user, userToken(user)]));
    /** Per loop, the last value each key was acknowledged with: for an own user, the final state. */
    const lastByLoop = loops.map(() => new Map<string, RatingChoice>());
    const implausible: string[] = [];
    let answered = 0;

    const clientLoop = async (loop: number) => {
      const agent = keepAliveAgent(serverCount);
      try {
        for (let step = 0; step < requestsPerLoop; step++) {
          const server = servers[(loop + step) % serverCount]!;
          const user = random.pick(loops[loop]!);
          const mealId = random.pick(mealIds);
          const rating = random.pick(ratingChoices);
          const answer = await rateMeal(agent, server.url, tokens.get(user)!, mealId, rating);
          answered += 1;
          const data = answer.body?.data;
          const count = data?.rating_count;
          const plausible =
            answer.status === 200 &&
            data.rating_personal === rating &&
            Number.isInteger(count) &&
            count >= (rating === null ? 0 : 1) &&
            count <= allUsers.length &&
            (count === 0
              ? data.rating_average === null && data.rating_median === null
              : data.rating_average >= 1 &&
                data.rating_average <= 5 &&
                Number.isInteger(data.rating_median * 2) &&
                data.rating_median >= 1 &&
                data.rating_median <= 5);
          if (!plausible)
            implausible.push(`${user} rated ${mealId} ${rating}: ${answer.status} ${JSON.stringify(answer.body)}`);
          lastByLoop[loop]!.set(ratingKey(mealId, user), rating);
        }
      } finally {
        agent.destroy();
      }
    };
    await Promise.all(loops.map((_, loop) => clientLoop(loop)));
    expect(implausible).toEqual([]);
    expect(answered).toBe(clientLoops * requestsPerLoop);
    for (const server of servers) expect(await server.stop('SIGTERM')).toBe(0);

    const snapshot = inspectDatabaseFile(databasePath);
    expect(snapshot.integrity).toBe('ok');
    expect(snapshot.duplicateRatings).toBe(0);
    for (const [mealId, { stored, recounted }] of snapshot.histograms) {
      expect(stored, `histogram of meal ${mealId}`).toEqual(recounted);
    }
    let keysChecked = 0;
    for (const user of allUsers) {
      for (const mealId of mealIds) {
        const key = ratingKey(mealId, user);
        const stored = snapshot.ratings.get(key) ?? null;
        // The last write of each loop that touched the key; the one committed last is what the table holds.
        const finals = lastByLoop.filter((last) => last.has(key)).map((last) => last.get(key)!);
        expect(finals.length === 0 ? [null] : finals, `rating ${key}`).toContain(stored);
        keysChecked += 1;
      }
    }
    reportFigures('multi-process concurrency', {
      seed,
      processes: serverCount,
      clients: clientLoops,
      users: allUsers.length,
      sharedUsers: sharedUsers.length,
      meals: mealIds.length,
      requests: answered,
      ratingsAtEnd: snapshot.ratings.size,
      keysChecked,
    });
  });
});

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHmacTokenVerifier } from '@canteen-meals/adapters-http';
import { createSqliteAdapters, openSqliteDatabase } from '@canteen-meals/adapters-sqlite';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { syncRunTimeoutMs } from './support/server-process.js';

const dist = (file: string) => fileURLToPath(new URL(`../dist/cli/${file}`, import.meta.url));
const secret = 'cli-test-secret-that-is-at-least-32-bytes';
const folder = mkdtempSync(join(tmpdir(), 'meals-cli-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function run(file: string, args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [dist(file), ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: syncRunTimeoutMs,
  });
}

describe('pnpm issue-token', () => {
  it('signs a token that the service accepts, with the scope asked for', () => {
    const result = run('issue-token.js', ['alice', '--scope', 'meals:write'], { JWT_SECRET: secret });
    expect(result.status).toBe(0);
    const principal = createHmacTokenVerifier({ secret })(result.stdout.trim());
    expect(principal.userId).toBe('alice');
    expect([...principal.scopes]).toEqual(['meals:write']);
  });

  it('explains its usage when the subject is missing', () => {
    const result = run('issue-token.js', [], { JWT_SECRET: secret });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('usage: pnpm issue-token <sub>');
  });

  it('refuses --expires-in-hours above JWT_MAX_LIFETIME_HOURS, saying so, and signs up to it', () => {
    const refused = run('issue-token.js', ['alice', '--expires-in-hours', '1000000'], { JWT_SECRET: secret });
    expect(refused.status).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      'issue-token: --expires-in-hours 1000000 is above the maximum token lifetime of 24 hours (JWT_MAX_LIFETIME_HOURS): ' +
        'the service would refuse such a token.\n',
    );
    expect(run('issue-token.js', ['alice', '--expires-in-hours', '25'], { JWT_SECRET: secret }).status).toBe(2);

    const atTheMaximum = run('issue-token.js', ['alice', '--expires-in-hours', '24'], { JWT_SECRET: secret });
    expect(atTheMaximum.status).toBe(0);
    const verify = createHmacTokenVerifier({ secret, maxLifetimeMs: 24 * 3_600_000 });
    expect(verify(atTheMaximum.stdout.trim()).userId).toBe('alice');

    const raised = run('issue-token.js', ['alice', '--expires-in-hours', '48'], {
      JWT_SECRET: secret,
      JWT_MAX_LIFETIME_HOURS: '48',
    });
    expect(raised.status).toBe(0);
  });
});

describe('pnpm meals:import <file.json>', () => {
  const database = join(folder, 'import.db');
  const env = { DATABASE_URL: `sqlite:${database}` };
  const write = (name: string, content: unknown) => {
    const path = join(folder, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };
  const meal = (id: number, name = `Meal ${id}`) => ({
    meal_id: id,
    name,
    served_at: '2026-03-02T11:00:00+01:00',
    rateable: true,
  });
  const storedNames = () => {
    const db = openSqliteDatabase(database);
    try {
      return (db.prepare('SELECT name FROM meals ORDER BY meal_id').all() as { name: string }[]).map((r) => r.name);
    } finally {
      db.close();
    }
  };

  it('upserts the admin body format in one transaction', async () => {
    const result = run('import-meals.js', [write('menu.json', { meals: [meal(1), meal(2)] })], env);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('upserted 2 meals');
    const again = run('import-meals.js', [write('menu2.json', { meals: [meal(2, 'Renamed'), meal(3)] })], env);
    expect(again.status).toBe(0);
    expect(storedNames()).toEqual(['Meal 1', 'Renamed', 'Meal 3']);
    const db = openSqliteDatabase(database);
    onTestFinished(() => void db.close());
    expect(await createSqliteAdapters(db).meals.count()).toBe(3);
  });

  it.each([
    ['not JSON', '{"meals": ['],
    ['a schema violation', { meals: [meal(4), { ...meal(5), rateable: 'yes' }] }],
    ['a duplicate id', { meals: [meal(4), meal(4)] }],
  ])('imports nothing from %s and says why', (_, content) => {
    const before = storedNames();
    const result = run('import-meals.js', [write('bad.json', content)], env);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/meals:import: .+/);
    expect(storedNames()).toEqual(before);
  });
});

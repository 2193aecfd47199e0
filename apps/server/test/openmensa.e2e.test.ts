import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TokenMother } from '../../../packages/adapters-jwt/test/token-fixtures.js';
import { startServer, type ServerProcess } from './support/server-process.js';

const secret = 'e2e-secret-that-is-at-least-32-bytes-long';
const folder = mkdtempSync(join(tmpdir(), 'meals-openmensa-e2e-'));
let server: ServerProcess | undefined;
afterAll(async () => {
  await server?.stop('SIGKILL');
  rmSync(folder, { recursive: true, force: true });
});

describe('OpenMensa on the real server process', () => {
  it('serves the v2 API, the XML export and the calendar as the composition root wires them, and revalidates fetch()', async () => {
    server = await startServer({
      NODE_ENV: 'production',
      JWT_SECRET: secret,
      DATABASE_URL: `sqlite:${join(folder, 'meals.db')}`,
      DATABASE_CREATE: '1',
    });
    const admin = TokenMother.signedWith(secret).admin();
    const saved = await fetch(`${server.url}/api/v1/admin/canteens/mensa`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Mensa', timezone: 'Europe/Berlin', openmensa_id: 187 }),
    });
    expect(saved.status).toBe(201);

    const canteen = await fetch(`${server.url}/api/v2//canteens/187.json`);
    expect(canteen.headers.get('x-om-api-version')).toBe('2');
    expect(await canteen.json()).toEqual({ id: 187, name: 'Mensa', city: '', address: null, coordinates: null });
    const etag = canteen.headers.get('etag')!;
    expect((await fetch(`${server.url}/api/v2/canteens/187`, { headers: { 'if-none-match': etag } })).status).toBe(304);

    const feed = await fetch(`${server.url}/api/v1/canteens/mensa/openmensa.xml`);
    expect([feed.status, feed.headers.get('content-type')]).toEqual([200, 'application/xml; charset=utf-8']);
    expect(await feed.text()).toContain('<name>Mensa</name>');
    const calendar = await fetch(`${server.url}/api/v1/canteens/mensa/menu.ics`);
    expect([calendar.status, calendar.headers.get('content-type')]).toEqual([200, 'text/calendar; charset=utf-8']);
    expect(await calendar.text()).toMatch(/^BEGIN:VCALENDAR\r\n/);
  });
});

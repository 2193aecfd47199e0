import { kitchenScope, signHmacToken } from '@canteen-meals/adapters-http';
import { afterEach, describe, expect, it } from 'vitest';
import { academica, item, secret, today, v2App } from './v2/v2-fixture.js';

type App = Awaited<ReturnType<typeof v2App>>;
let current: App | undefined;
afterEach(() => current?.app.close());

describe("the kitchen's availability in the OpenMensa exports", () => {
  it('keeps the meal in its place in the OpenMensa v2 answer and the XML export, whose shapes do not change', async () => {
    const { app, get } = (current = await v2App({
      menus: { [academica.id]: [{ date: today, closed: false, items: [item('Open meal'), item('Salad bar')] }] },
    }));
    const v2Url = `/api/v2/canteens/${academica.openmensaId}/days/${today}/meals`;
    const xmlUrl = `/api/v1/canteens/${academica.id}/openmensa.xml`;
    const v2Before = (await get(v2Url)).body;
    const xmlBefore = (await get(xmlUrl)).body;
    const [meal] = JSON.parse(v2Before) as { id: number; name: string }[];
    expect(meal?.name).toBe('Open meal');

    const put = await app.inject({
      method: 'PUT',
      url: `/api/v1/kitchen/meals/${meal!.id}/availability`,
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${signHmacToken(secret, { sub: 'kitchen', scope: kitchenScope })}`,
      },
      payload: JSON.stringify({ status: 'sold_out' }),
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().data.availability).toBe('sold_out');

    expect((await get(v2Url)).body).toBe(v2Before);
    expect((await get(xmlUrl)).body).toBe(xmlBefore);
    expect(xmlBefore).toContain('Open meal');
  });
});

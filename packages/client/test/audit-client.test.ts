import { createMealsClient } from '@canteen-meals/client';
import { describe, expect, it } from 'vitest';

/** A client whose fetch answers `body` and keeps the URLs it was asked for. */
function recording(body: string, contentType: string) {
  const urls: string[] = [];
  const client = createMealsClient({
    baseUrl: 'http://meals.example',
    token: 'a-token',
    fetch: async (input) => {
      urls.push(String(input));
      return new Response(body, { status: 200, headers: { 'content-type': contentType } });
    },
  });
  return { client, urls };
}

describe('the audit trail through the client', () => {
  it('asks GET /admin/audit with the filters that are set, the limit and the cursor, and answers the page', async () => {
    const page = { entries: [], next_cursor: null };
    const { client, urls } = recording(JSON.stringify({ status: 'success', data: page }), 'application/json');
    expect(
      await client.listAuditEntries({ canteen: 'mensa-nord', action: 'availability.set', limit: 20, cursor: 'c1' }),
    ).toEqual(page);
    const url = new URL(urls[0]!);
    expect(url.pathname).toBe('/api/v1/admin/audit');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      canteen: 'mensa-nord',
      action: 'availability.set',
      cursor: 'c1',
      limit: '20',
    });
    await client.listAuditEntries();
    expect(new URL(urls[1]!).search).toBe('');
  });

  it('exports the trail as CSV text from GET /admin/audit/export', async () => {
    const csv = 'id,at,actor,actor_scopes,action,canteen_id,target,summary,request_id\r\n';
    const { client, urls } = recording(`\uFEFF${csv}`, 'text/csv; charset=utf-8');
    expect(await client.exportAuditEntries({ actor: 'maria', from: '2026-03-01T00:00:00Z' })).toBe(csv);
    const url = new URL(urls[0]!);
    expect(url.pathname).toBe('/api/v1/admin/audit/export');
    expect(Object.fromEntries(url.searchParams)).toEqual({ actor: 'maria', from: '2026-03-01T00:00:00Z' });
  });
});

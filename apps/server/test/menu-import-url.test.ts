import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The real CLI process, fetching from a real local HTTP server (a canteen's feed URL).
const importCli = fileURLToPath(new URL('../dist/cli/import-meals.js', import.meta.url));
const feed = readFileSync(fileURLToPath(new URL('../../../examples/openmensa-feed.xml', import.meta.url)));
const folder = mkdtempSync(join(tmpdir(), 'meals-import-url-'));
const run = promisify(execFile);

let server: Server;
let requests: string[];
let baseUrl: string;

beforeAll(async () => {
  requests = [];
  server = createServer((request, response) => {
    requests.push(request.url ?? '');
    if (request.url === '/feed.xml') {
      response.writeHead(200, { 'content-type': 'application/xml' }).end(feed);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(folder, { recursive: true, force: true });
});

let databases = 0;
async function importUrl(url: string, env: Record<string, string> = {}) {
  const dataFolder = join(folder, `db-${++databases}`);
  const result = await run(process.execPath, [importCli, url], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: `sqlite:${join(dataFolder, 'meals.db')}`, ...env },
    encoding: 'utf8',
  }).then(
    ({ stdout, stderr }) => ({ status: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      status: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
  return { ...result, dataFolder };
}

describe('pnpm meals:import <http(s) URL>', () => {
  it('fetches the feed and imports it, where private networks are allowed', async () => {
    const result = await importUrl(`${baseUrl}/feed.xml`, { OUTBOUND_ALLOW_PRIVATE_NETWORKS: '1' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`OpenMensa 2.1 feed ${baseUrl}/feed.xml`);
    expect(result.stdout).toContain('added 14, updated 0, unchanged 0');
  });

  it('refuses a URL whose host is a loopback address by default, before any request, creating no database', async () => {
    const before = requests.length;
    const result = await importUrl(`${baseUrl}/feed.xml`);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^meals:import: http:\/\/127\.0\.0\.1:\d+\/feed\.xml: .*(private|public|loopback)/i);
    expect(requests.length).toBe(before);
    expect(existsSync(result.dataFolder)).toBe(false);
  });

  it('reports an HTTP error status and imports nothing', async () => {
    const result = await importUrl(`${baseUrl}/missing.xml`, { OUTBOUND_ALLOW_PRIVATE_NETWORKS: '1' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('404');
    expect(existsSync(result.dataFolder)).toBe(false);
  });
});

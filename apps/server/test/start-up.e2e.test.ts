import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runServerToExit, serverMain, startServer } from './support/server-process.js';

// A start explains itself. Each failing start ends with exactly one line that says what and what to do,
// a non-zero exit code and no stack trace; the real process is started and its output read.

const production = { NODE_ENV: 'production', JWT_SECRET: 'start-up-test-secret-of-at-least-32-bytes' };
const stackFrame = /^\s+at /m;

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'meals-start-up-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** A port that some other process holds (here: this test's own listener). */
async function takenPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as { port: number }).port, server };
}

/** A port nothing listens on: taken from the system, then let go. */
async function freePort(): Promise<number> {
  const { port, server } = await takenPort();
  server.close();
  await once(server, 'close');
  return port;
}

const linesOf = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

describe('a start that cannot go on ends with one line', () => {
  it('names a taken port and the setting that moves it', async () => {
    const { port, server } = await takenPort();
    try {
      const run = await runServerToExit({ PORT: String(port), DATABASE_URL: 'memory:' });
      expect(run.code).toBe(1);
      expect(linesOf(run.stderr)).toEqual([
        `meals: port ${port} on 127.0.0.1 is already in use by another process: stop that process, or set PORT to a free port (in the environment or in .env).`,
      ]);
      expect(run.output).not.toMatch(stackFrame);
    } finally {
      server.close();
    }
  });

  it('names a PostgreSQL that does not answer, without its password, once DATABASE_CONNECT_TIMEOUT_S is over', async () => {
    const port = await freePort();
    const run = await runServerToExit({
      DATABASE_URL: `postgres://meals:s3cret-password@127.0.0.1:${port}/meals`,
      DATABASE_CONNECT_TIMEOUT_S: '0',
    });
    expect(run.code).toBe(1);
    const lines = linesOf(run.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^meals: PostgreSQL at 127\\.0\\.0\\.1:${port}/meals did not answer within 0 s \\(connect ECONNREFUSED [^)]+\\): start it, or correct the host and port in DATABASE_URL`,
      ),
    );
    expect(run.output).not.toContain('s3cret-password');
    expect(run.output).not.toMatch(stackFrame);
  });

  it('names a missing secret and how to make one; in production the line is JSON like every other', async () => {
    const run = await runServerToExit({ NODE_ENV: 'production', DATABASE_URL: 'memory:' });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const lines = linesOf(run.stderr);
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as { level: number; msg: string };
    expect(line.level).toBe(60);
    expect(line.msg).toMatch(
      /^meals: invalid configuration: JWT_SECRET is required when NODE_ENV=production .*JWT_SECRET=\$\(openssl rand -base64 48\)/,
    );
    expect(run.output).not.toMatch(stackFrame);
  });
});

describe('while PostgreSQL does not answer yet', () => {
  it('answers /healthz, says on /readyz why it is not ready, and ends at once on SIGTERM', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [serverMain], {
      env: {
        PATH: process.env.PATH ?? '',
        PORT: '0',
        LOG_LEVEL: 'warn',
        DATABASE_URL: `postgres://meals:pw@127.0.0.1:${port}/meals`,
        DATABASE_CONNECT_TIMEOUT_S: '600',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const exited = once(child, 'exit');
    const address = await new Promise<string>((resolve) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        const match = /waiting for the database: .* Meanwhile (http:\/\/\S+)\/healthz answers/.exec(output);
        if (match) resolve(match[1]!);
      });
    });

    const health = await fetch(`${address}/healthz`);
    expect(health.status).toBe(200);
    const ready = await fetch(`${address}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({
      status: 'error',
      error: {
        code: 'not_ready',
        message: expect.stringMatching(
          new RegExp(
            `^PostgreSQL at 127\\.0\\.0\\.1:${port}/meals does not answer yet \\(connect ECONNREFUSED .*\\); retrying\\.$`,
          ),
        ),
      },
    });
    const api = await fetch(`${address}/api/v1/canteens`);
    expect(api.status).toBe(503);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('service_unavailable');

    child.kill('SIGTERM');
    const [code] = await exited;
    expect(code).toBe(0);
    expect(output).not.toMatch(stackFrame);
  });
});

describe('settings from .env', () => {
  it('reads .env in the working directory, and a variable of the real environment wins over it', async () => {
    writeFileSync(join(folder, '.env'), 'DATABASE_URL=memory:\nPORT=not-a-port\nDOCS_ENABLED=false\n');
    // PORT=0 from the real environment (the helper sets it) wins over the file's invalid value.
    const server = await startServer({}, 15_000, { cwd: folder });
    expect(server.output()).toContain('(database: in memory)');
    expect(server.output()).not.toContain('API docs');
    expect((await fetch(`${server.url}/openapi.json`)).status).toBe(404);
    expect(await server.stop()).toBe(0);
  });
});

describe('a .env that an editor wrote (issue 39)', () => {
  it('reads the first variable after a byte order mark', async () => {
    writeFileSync(join(folder, '.env'), '\ufeffDOCS_ENABLED=false\r\nDATABASE_URL=memory:\r\n');
    const server = await startServer({}, 15_000, { cwd: folder });
    expect((await fetch(`${server.url}/openapi.json`)).status).toBe(404);
    expect(await server.stop()).toBe(0);
  });

  it('refuses to start on an unterminated quote with one line naming the file and line', async () => {
    writeFileSync(
      join(folder, '.env'),
      'DATABASE_URL=memory:\nJWT_SECRET="start-up-test-secret-of-at-least-32-bytes\n',
    );
    const child = spawn(process.execPath, [serverMain], {
      cwd: folder,
      env: { PATH: process.env.PATH ?? '', PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(output).not.toMatch(stackFrame);
    expect(linesOf(output)).toEqual([
      `meals: ${join(folder, '.env')}:2: the value of JWT_SECRET opens a quote (") that does not close on its line: close it, or remove the quote.`,
    ]);
  });
});

describe('the output of a running server', () => {
  it('in production is JSON lines only, from the banner to the shutdown', async () => {
    const server = await startServer({
      ...production,
      DATABASE_URL: 'memory:',
      LOG_LEVEL: 'info',
      METRICS_TOKEN: 'start-up-metrics-token',
    });
    await fetch(`${server.url}/api/v1/canteens`);
    await fetch(`${server.url}/nowhere`);
    expect(await server.stop()).toBe(0);
    const lines = linesOf(server.output());
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toContain(
      'shutting down: finishing requests in flight',
    );
  });

  it('ends quietly on Ctrl-C (SIGINT): exit code 0 and nothing printed after the listening line', async () => {
    const server = await startServer({ DATABASE_URL: 'memory:', LOG_LEVEL: 'info' });
    const before = server.output();
    expect(await server.stop('SIGINT')).toBe(0);
    expect(server.output()).toBe(before);
  });

  it('ends quietly on Ctrl-C under `pnpm start:prod` too: the signal reaches the server twice (terminal and pnpm)', async () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    // A process group of its own, as a terminal makes one: Ctrl-C sends SIGINT to the whole group.
    const child = spawn('pnpm', ['start:prod'], {
      cwd: root,
      detached: true,
      env: { PATH: process.env.PATH ?? '', PORT: '0', LOG_LEVEL: 'info', DATABASE_URL: 'memory:' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const exited = once(child, 'exit');
    await new Promise<void>((resolve) => {
      const read = (chunk: string) => {
        output += chunk;
        if (output.includes('listening on')) resolve();
      };
      child.stdout.setEncoding('utf8').on('data', read);
      child.stderr.setEncoding('utf8').on('data', read);
    });
    const before = output;
    // Fastify's own line is written before the banner's last line, not after it.
    expect(before).toContain('"msg":"Server listening at');
    process.kill(-child.pid!, 'SIGINT');
    const [code] = await exited;
    expect(code).toBe(0);
    expect(output).toBe(before);
  });

  it('states the demo data as seeded demo data, naming its meals and canteens', async () => {
    const server = await startServer({ DATABASE_URL: `sqlite:${join(folder, 'demo.db')}` });
    expect(server.output()).toContain(
      'meals: seeded a demo menu into the new database: demo data, made up for trying the API (meal ids 1 to 10 in the canteens default and mensa-nord).',
    );
    await server.stop();
  });
});

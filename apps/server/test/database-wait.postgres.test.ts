import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { databasePerFile } from '../../../packages/adapters-postgres/test/support/test-database.js';
import { serverMain } from './support/server-process.js';

// A PostgreSQL that is not reachable yet at start is waited for. The database "comes up" when this test
// opens a TCP relay to the throwaway cluster on the port the server was told; nothing depends on timing.

const databaseUrl = databasePerFile();
const sockets = new Set<Socket>();
let relay: Server | undefined;
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  relay?.close();
});

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  probe.close();
  await once(probe, 'close');
  return port;
}

/** Forwards every connection on `port` to the real cluster: PostgreSQL appears at that address. */
async function relayTo(port: number, target: URL): Promise<Server> {
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

describe('a start while PostgreSQL is not reachable yet', () => {
  it('waits on its port, not ready, and serves once the database answers, on the same address', async () => {
    const real = new URL(databaseUrl());
    const port = await freePort();
    const late = new URL(real);
    late.hostname = '127.0.0.1';
    late.port = String(port);
    const child = spawn(process.execPath, [serverMain], {
      env: {
        PATH: process.env.PATH ?? '',
        PORT: '0',
        LOG_LEVEL: 'warn',
        DATABASE_URL: late.href,
        DATABASE_CONNECT_TIMEOUT_S: '600',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const waiters = new Set<() => void>();
    const read = (chunk: string) => {
      output += chunk;
      for (const check of waiters) check();
    };
    child.stdout.setEncoding('utf8').on('data', read);
    child.stderr.setEncoding('utf8').on('data', read);
    const waitFor = (pattern: RegExp) =>
      new Promise<RegExpExecArray>((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(output);
          if (match) {
            waiters.delete(check);
            resolve(match);
          }
        };
        waiters.add(check);
        child.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${output}`)));
        check();
      });
    const exited = once(child, 'exit');
    try {
      const [, address] = await waitFor(/Meanwhile (http:\/\/\S+)\/healthz answers/);
      expect((await fetch(`${address}/healthz`)).status).toBe(200);
      expect((await fetch(`${address}/readyz`)).status).toBe(503);

      relay = await relayTo(port, real);
      const [, listening] = await waitFor(/listening on (http:\/\/\S+)/);
      expect(listening).toBe(address);
      const ready = await fetch(`${address}/readyz`);
      expect(ready.status).toBe(200);
      expect((await fetch(`${address}/api/v1/canteens`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    expect(output).not.toMatch(/^\s+at /m);
  });
});

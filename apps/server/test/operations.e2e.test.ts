import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from './support/server-process.js';

const running: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((server) => server.stop('SIGKILL')));
});

describe('the real server process, as an operator sees it', () => {
  it('prints where health, readiness and metrics are, and serves metrics on METRICS_PORT', async () => {
    const server = await startServer({ DATABASE_URL: 'memory:', METRICS_PORT: '0' });
    running.push(server);
    const output = server.output();
    expect(output).toContain(`meals: health     ${server.url}/healthz`);
    expect(output).toContain(`meals: readiness  ${server.url}/readyz`);
    const metricsUrl = /meals: metrics +(http:\/\/\S+)\/metrics/.exec(output)?.[1];
    expect(metricsUrl).toBeDefined();
    expect(metricsUrl).not.toBe(server.url);

    const health = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': 'probe-1' } });
    expect(health.status).toBe(200);
    expect(health.headers.get('x-request-id')).toBe('probe-1');
    expect(await health.json()).toEqual({ status: 'success', data: { status: 'ok' } });
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);

    const metrics = await fetch(`${metricsUrl}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await metrics.text()).toMatch(
      /^http_requests_total\{method="GET",route="\/healthz",status_code="200"\} 1$/m,
    );
    expect(await server.stop('SIGTERM')).toBe(0);
  });

  it('says that metrics are disabled', async () => {
    const server = await startServer({ DATABASE_URL: 'memory:', METRICS_ENABLED: 'false' });
    running.push(server);
    expect(server.output()).toContain('meals: metrics    disabled (METRICS_ENABLED=false)');
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
  });
});

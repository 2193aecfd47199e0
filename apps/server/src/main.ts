import { docsPath, openApiPath, signHmacToken } from '@canteen-meals/adapters-http';
import type { UseCases } from '@canteen-meals/domain';
import { ConfigError, loadConfig, type Config } from './config.js';
import { buildServer, tokens } from './composition-root.js';
import { demoCanteen, demoMenu } from './demo-menu.js';
import type { Persistence } from './persistence.js';
import { valueOrThrow } from './refused.js';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const { app, metricsApp, persistence, container } = await buildServer(config);
  const seeded = config.production ? false : await seedDemoMenuIfEmpty(persistence, container.resolve<UseCases>(tokens.useCases));

  let closing = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    try {
      await app.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);

  const address = await app.listen({ port: config.port, host: config.host });
  const metricsAddress =
    metricsApp === undefined || config.metricsPort === undefined
      ? address
      : await metricsApp.listen({ port: config.metricsPort, host: config.host });
  const notes: string[] = [];
  if (config.jwtSecretIsDevelopmentDefault) {
    notes.push('meals: JWT_SECRET is not set, so the public development secret signs and verifies tokens.');
  }
  if (config.cursorSecret === undefined && config.database.kind === 'postgres') {
    notes.push('meals: CURSOR_SECRET is not set: page cursors are signed with a key of this process, so another instance refuses them.');
  }
  if (seeded) notes.push('meals: seeded a demo menu (meal ids 1 to 7) into the new database.');
  // Only a shared secret lets the server sign a token itself; public-key and JWKS tokens come from their issuer. The
  // curl line rates meal 1, which exists only when the demo menu was seeded.
  if (seeded && config.jwtKey.kind === 'secret') notes.push(...tryItLines(address, config));
  if (config.docsEnabled) notes.push(`meals: API docs   ${address}${docsPath} (OpenAPI: ${address}${openApiPath})`);
  notes.push(...operationsLines(address, config.metricsEnabled ? metricsAddress : undefined, config));
  // The "listening" line comes last: whoever waits for it has everything else already.
  notes.push(`meals: listening on ${address} (database: ${describeDatabase(config)})`);
  console.log(notes.join('\n'));
}

function loadConfigOrExit(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const problem of error.message.split('\n')) console.error(`meals: invalid configuration: ${problem}`);
    process.exit(1);
  }
}

/** The demo menu goes in as an admin upsert would: through the UpsertMeals use case and its validation. */
async function seedDemoMenuIfEmpty(
  persistence: Persistence,
  { upsertMeals, saveCanteen }: Pick<UseCases, 'upsertMeals' | 'saveCanteen'>,
): Promise<boolean> {
  if ((await persistence.meals.count()) > 0) return false;
  valueOrThrow(await saveCanteen.execute(demoCanteen));
  valueOrThrow(await upsertMeals.execute(demoMenu(new Date())));
  return true;
}

function describeDatabase(config: Config): string {
  switch (config.database.kind) {
    case 'sqlite':
      return `SQLite at ${config.database.path}`;
    case 'postgres':
      return `PostgreSQL at ${postgresLocation(config.database.url)}`;
    case 'memory':
      return 'in memory';
  }
}

/** Host, port and database only: the URL's password never reaches a log. */
function postgresLocation(url: string): string {
  try {
    const { hostname, port, pathname } = new URL(url);
    return `${hostname}${port === '' ? '' : `:${port}`}${pathname}`;
  } catch {
    return '(unparsed URL)';
  }
}

function operationsLines(address: string, metricsAddress: string | undefined, config: Config): string[] {
  const disabled = config.metricsUnguarded
    ? 'disabled (in production set METRICS_PORT or METRICS_TOKEN to serve them)'
    : 'disabled (METRICS_ENABLED=false)';
  const guard = config.metricsToken === undefined ? '' : ' (Authorization: Bearer <METRICS_TOKEN>)';
  return [
    `meals: health     ${address}/healthz`,
    `meals: readiness  ${address}/readyz`,
    `meals: metrics    ${metricsAddress === undefined ? disabled : `${metricsAddress}/metrics${guard}`}`,
  ];
}

function tryItLines(address: string, config: Config): string[] {
  // Never longer than the server accepts (JWT_MAX_LIFETIME_HOURS).
  const expiresInMs = Math.min(24 * 60 * 60 * 1000, config.jwtMaxLifetimeMs);
  const token = signHmacToken(config.jwtSecret, {
    sub: 'demo-user',
    issuer: config.jwtIssuer,
    audience: config.jwtAudience,
    expiresInMs,
  });
  return [
    `meals: try it (the token is valid for ${expiresInMs / 3_600_000} hours):`,
    `curl -s -X POST ${address}/api/v1/rate-meal -H 'authorization: Bearer ${token}' ` +
      `-H 'content-type: application/json' -d '{"meal_id":1,"rating":5}'`,
  ];
}

main().catch((error: unknown) => {
  // A setting that does not fit the environment (a missing database file in production) is told like a bad setting.
  if (error instanceof ConfigError) for (const problem of error.message.split('\n')) console.error(`meals: ${problem}`);
  else console.error('meals: failed to start:', error);
  process.exit(1);
});

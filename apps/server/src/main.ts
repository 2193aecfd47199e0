import { buildStartingApp, docsPath, openApiPath, signHmacToken } from '@canteen-meals/adapters-http';
import type { FastifyInstance } from 'fastify';
import type { UseCases } from '@canteen-meals/domain';
import { ConfigError, loadConfig, type Config } from './config.js';
import { buildServer, tokens } from './composition-root.js';
import { demoCanteen, demoMenu } from './demo-menu.js';
import type { Persistence } from './persistence.js';
import { valueOrThrow } from './refused.js';
import { postgresLocation } from './database-connect.js';
import { loadEnvFile } from './env-file.js';
import { loggerOptions } from './logger-options.js';
import { StartUpError } from './start-up-error.js';
import { startUpOutput, type StartUpOutput } from './start-up-output.js';

/** Plain text until the configuration says production (it may come from `.env`, read first). */
let output: StartUpOutput = startUpOutput(false);

async function main(): Promise<void> {
  loadEnvFile();
  output = startUpOutput(process.env.NODE_ENV === 'production');
  const config = loadConfigOrExit();

  // While PostgreSQL does not answer yet, a small app holds the port: /healthz answers, /readyz says why not ready.
  let starting: { app: FastifyInstance; port: number } | undefined;
  let waitingFor = '';
  let app: FastifyInstance | undefined;
  let closing = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    // Ctrl-C on a developer's terminal ends quietly; an orchestrator's SIGTERM is worth a log line.
    if (signal !== 'SIGINT') app?.log.info({ signal }, 'shutting down: finishing requests in flight');
    try {
      await starting?.app.close();
      await app?.close();
      process.exit(0);
    } catch (error) {
      app?.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  // `on`, not `once`: under `pnpm start` Ctrl-C reaches the server twice (from the terminal and forwarded by pnpm); a
  // second signal during the shutdown is ignored instead of killing the process halfway.
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);

  const built = await buildServer(config, {
    earlyWarning: output.warn,
    onDatabaseWaiting: async ({ reason, retryInMs }) => {
      waitingFor = reason;
      if (starting !== undefined) return;
      const startingApp = await buildStartingApp({
        notReadyBecause: () => `${waitingFor}; retrying.`,
        logger: loggerOptions(config),
      });
      const address = await listenOrExplain(startingApp, config.port, config.host, 'PORT');
      starting = { app: startingApp, port: Number(new URL(address).port) };
      output.note(
        `meals: waiting for the database: ${reason}; trying again in ${retryInMs} ms, for up to ` +
          `${config.databaseConnectTimeoutMs / 1000} s (DATABASE_CONNECT_TIMEOUT_S). Meanwhile ${address}/healthz answers ` +
          `and ${address}/readyz says why it is not ready.`,
      );
    },
  });
  if (closing) return;
  app = built.app;
  const { metricsApp, persistence, container } = built;
  const seeded = config.production
    ? false
    : await seedDemoMenuIfEmpty(persistence, container.resolve<UseCases>(tokens.useCases), config.timeZone);

  // The port the waiting app held (the same one, also when PORT=0 picked it) goes to the real app.
  const port = starting?.port ?? config.port;
  await starting?.app.close();
  starting = undefined;
  const address = await listenOrExplain(app, port, config.host, 'PORT');
  const metricsAddress =
    metricsApp === undefined || config.metricsPort === undefined
      ? address
      : await listenOrExplain(metricsApp, config.metricsPort, config.host, 'METRICS_PORT');
  const notes: string[] = [];
  if (config.jwtSecretIsDevelopmentDefault) {
    notes.push('meals: JWT_SECRET is not set, so the public development secret signs and verifies tokens.');
  }
  if (config.cursorSecret === undefined && config.database.kind === 'postgres') {
    notes.push(
      'meals: CURSOR_SECRET is not set: page cursors are signed with a key of this process, so another instance refuses them.',
    );
  }
  if (seeded) notes.push(seededNote());
  // Only a shared secret lets the server sign a token itself; public-key and JWKS tokens come from their issuer. The
  // curl line rates meal 1, which exists only when the demo menu was seeded.
  if (seeded && config.jwtKey.kind === 'secret') notes.push(...tryItLines(address, config));
  notes.push(`meals: app        ${address}/ (the students' app: the menu, rating and favourites)`);
  if (config.docsEnabled) notes.push(`meals: API docs   ${address}${docsPath} (OpenAPI: ${address}${openApiPath})`);
  notes.push(...operationsLines(address, config.metricsEnabled ? metricsAddress : undefined, config));
  // The "listening" line comes last: whoever waits for it has everything else already.
  notes.push(`meals: listening on ${address} (database: ${describeDatabase(config)})`);
  for (const note of notes) output.note(note);
}

/** Listens, or ends the start with one line that says which setting to change. */
async function listenOrExplain(
  app: FastifyInstance,
  port: number,
  host: string,
  setting: 'PORT' | 'METRICS_PORT',
): Promise<string> {
  try {
    return await app.listen({ port, host });
  } catch (error) {
    switch ((error as NodeJS.ErrnoException).code) {
      case 'EADDRINUSE':
        throw new StartUpError(
          `port ${port} on ${host} is already in use by another process: stop that process, or set ${setting} to a free port (in the environment or in .env).`,
        );
      case 'EACCES':
        throw new StartUpError(
          `port ${port} on ${host} needs privileges this process lacks: set ${setting} to a port above 1023.`,
        );
      case 'EADDRNOTAVAIL':
      case 'ENOTFOUND':
        throw new StartUpError(
          `HOST ${host} is not an address of this machine: set HOST to one of its addresses (0.0.0.0: all of them).`,
        );
      default:
        throw error;
    }
  }
}

function seededNote(): string {
  const meals = demoMenu(new Date(), 'UTC');
  const canteens = [...new Set(meals.map((meal) => meal.canteenId ?? 'default'))];
  return (
    `meals: seeded a demo menu into the new database: demo data, made up for trying the API (meal ids 1 to ${meals.length} ` +
    `in the canteens ${canteens.join(' and ')}). It stays until you delete the database; NODE_ENV=production never seeds.`
  );
}

function loadConfigOrExit(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const problem of error.message.split('\n')) output.fatal(`meals: invalid configuration: ${problem}`);
    process.exit(1);
  }
}

/** The demo menu goes in as an admin upsert would: through the UpsertMeals use case and its validation. */
async function seedDemoMenuIfEmpty(
  persistence: Persistence,
  { upsertMeals, saveCanteen }: Pick<UseCases, 'upsertMeals' | 'saveCanteen'>,
  timeZone: string,
): Promise<boolean> {
  if ((await persistence.meals.count()) > 0) return false;
  valueOrThrow(await saveCanteen.execute(demoCanteen));
  valueOrThrow(await upsertMeals.execute(demoMenu(new Date(), timeZone)));
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
  // A setting that does not fit the environment (a missing database file in production, a taken port) is one line
  // that says what to do; only a surprise (a bug) comes with its stack.
  if (error instanceof ConfigError || error instanceof StartUpError) {
    for (const problem of error.message.split('\n')) output.fatal(`meals: ${problem}`);
  } else {
    output.fatal(`meals: failed to start: ${error instanceof Error ? error.message : String(error)}`, {
      stack: error instanceof Error ? error.stack : undefined,
    });
  }
  process.exit(1);
});

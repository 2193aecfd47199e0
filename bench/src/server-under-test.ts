import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startProcess, type ProbeRequest, type Target } from './processes.js';

export const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
/**
 * The bundled server that `pnpm start:prod` and the deployable bundle run (apps/server/build-bundle.mjs);
 * BENCH_SERVER_SCRIPT runs another build (a copy of an earlier bundle), to measure before and after a change alike.
 */
const serverScript = process.env.BENCH_SERVER_SCRIPT || join(repositoryRoot, 'apps/server/dist/bundle/server.js');
const referenceScript = fileURLToPath(new URL('./reference-server.js', import.meta.url));

/** As README.md (Deployment) recommends for production. */
/**
 * Live statistics streams the bench's server allows, in all and per address: the live measurement opens its 5000
 * streams from one address (127.0.0.1), past the production default of 20 per address.
 */
export const benchLiveStreamLimit = 6000;

export const productionNodeOptions = '--max-old-space-size=256 --max-semi-space-size=4';

/** Starts the real server (apps/server/dist/bundle/server.js) as production runs it, on the given database. */
export async function startServer(options: {
  name: string;
  databaseUrl: string;
  jwtSecret: string;
  probe: ProbeRequest;
  /** Settings beside the bench's own (Web Push's keys and times). */
  env?: Readonly<Record<string, string>>;
}): Promise<Target> {
  const port = await freePort();
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
  return startProcess({
    name: options.name,
    script: serverScript,
    nodeArgs,
    port,
    probe: options.probe,
    env: {
      PATH: process.env.PATH ?? '',
      // The deployment environment of the README: V8's old generation capped, so that it collects before it grows.
      NODE_OPTIONS: productionNodeOptions,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: options.databaseUrl,
      // Production refuses a missing SQLite file; a bench may start on a fresh one.
      DATABASE_CREATE: '1',
      JWT_SECRET: options.jwtSecret,
      LOG_LEVEL: 'warn',
      TZ_NAME: 'Europe/Berlin',
      // One load generator speaks for many users from one address: per-user and per-address limits would answer 429.
      RATE_LIMIT_USER_PER_MIN: '0',
      RATE_LIMIT_IP_PER_MIN: '0',
      LIVE_MAX_STREAMS: String(benchLiveStreamLimit),
      LIVE_MAX_STREAMS_PER_ADDRESS: String(benchLiveStreamLimit),
      ...options.env,
    },
  });
}

/**
 * Starts the reference app for one scenario, answering each of its routes with the server's recorded answer; ready
 * when `probe` (one of the scenario's requests) gets the status the scenario expects.
 */
export async function startReference(answersFile: string, probe: ProbeRequest, probeStatus: number): Promise<Target> {
  const port = await freePort();
  return startProcess({
    name: 'reference',
    script: referenceScript,
    port,
    probe,
    probeStatus,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      PORT: String(port),
      REFERENCE_ANSWERS_FILE: answersFile,
    },
  });
}

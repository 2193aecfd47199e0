import { parseArgs } from 'node:util';
import { signHmacToken } from '@canteen-meals/adapters-http';
import { ConfigError, loadConfig } from '../config.js';
import { withEnvFile } from '../env-file.js';

const usage = 'usage: pnpm issue-token <sub> [--scope "meals:write"] [--expires-in-hours 1]';

try {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      scope: { type: 'string' },
      'expires-in-hours': { type: 'string', default: '1' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const [sub] = positionals;
  const hours = Number(values['expires-in-hours']);
  if (sub === undefined || positionals.length > 1 || !(hours > 0)) throw new ConfigError(usage);
  const config = loadConfig(withEnvFile());
  const maxHours = config.jwtMaxLifetimeMs / 3_600_000;
  if (hours > maxHours) {
    throw new ConfigError(
      `--expires-in-hours ${values['expires-in-hours']} is above the maximum token lifetime of ${maxHours} hours ` +
        '(JWT_MAX_LIFETIME_HOURS): the service would refuse such a token.',
    );
  }
  if (config.jwtKey.kind !== 'secret') {
    throw new ConfigError(
      'this command signs HS256 tokens with JWT_SECRET; with a public key or JWKS, the issuer signs them.',
    );
  }
  if (config.jwtSecretIsDevelopmentDefault)
    console.error('issue-token: signed with the development secret (JWT_SECRET is not set)');
  console.log(
    signHmacToken(config.jwtSecret, {
      sub,
      scope: values.scope,
      issuer: config.jwtIssuer,
      audience: config.jwtAudience,
      expiresInMs: hours * 60 * 60 * 1000,
    }),
  );
} catch (error) {
  console.error(`issue-token: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}

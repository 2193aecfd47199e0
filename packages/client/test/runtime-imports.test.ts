import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const sourceDir = new URL('../src/', import.meta.url);

it('imports at run time nothing but the wire contract, so the client runs on fetch and the contract alone', () => {
  const runtimeImports = readdirSync(sourceDir)
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) =>
      [
        ...readFileSync(new URL(file, sourceDir), 'utf8').matchAll(
          /^(import|export)(?! type)[^'"]*from\s+'([^'.][^']*)'/gm,
        ),
      ].map((match) => `${file}: ${match[2]}`),
    );
  expect(runtimeImports.filter((found) => !found.endsWith(': @canteen-meals/http-contract'))).toEqual([]);
  expect(runtimeImports.length).toBeGreaterThan(0);
});

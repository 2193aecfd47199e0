import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const sourceDir = new URL('../src/', import.meta.url);

it('imports other packages for their types only, so the client runs on fetch alone', () => {
  const runtimeImports = readdirSync(sourceDir)
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) =>
      [...readFileSync(new URL(file, sourceDir), 'utf8').matchAll(/^(import|export)(?! type)[^'"]*from\s+'([^'.][^']*)'/gm)].map(
        (match) => `${file}: ${match[2]}`,
      ),
    );
  expect(runtimeImports).toEqual([]);
});

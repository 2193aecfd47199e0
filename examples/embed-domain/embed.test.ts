import { readFileSync } from 'node:fs';
import { afterEach, expect, it, vi } from 'vitest';

// The example lives outside packages/domain: the domain depends on no adapter, not even in its examples.
const examplePath = new URL('./embed.ts', import.meta.url);
const readmePath = new URL('../../packages/domain/README.md', import.meta.url);

afterEach(() => vi.restoreAllMocks());

it('runs the embedding example of the README: marks, rates and prints statistics', async () => {
  const printed: unknown[][] = [];
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(args));

  await import('./embed.js');

  expect(printed).toEqual([
    ['alice marks meal 1:', { marked: true }],
    ['bob rates meal 1 with 4:', { count: 2, average: 4.5, median: 4.5, personal: 4 }],
    ['statistics of meal 1:', { count: 2, average: 4.5, median: 4.5 }],
    ['alice reads meal 1:', { marked: true, personalRating: 5, ratingOpen: true }],
    ['alice deletes her rating a week later:', 'rating_period_over'],
  ]);
});

it('shows the example in the README exactly as it runs', () => {
  const example = readFileSync(examplePath, 'utf8');
  expect(readFileSync(readmePath, 'utf8')).toContain(`\`\`\`ts\n${example}\`\`\``);
});

import { describe, expect, it } from 'vitest';
import { createPageCursors } from '../src/routes/page-cursor.js';

const position = { servedAt: new Date('2026-03-10T11:00:00Z'), mealId: 42 };
const secret = 'cursor-test-secret-of-at-least-32-bytes';

describe('page cursors', () => {
  it('are accepted by every instance that shares the secret', () => {
    const cursor = createPageCursors(secret).encode('rated', 'alice', position);
    expect(createPageCursors(secret).decode('rated', 'alice', cursor)).toEqual(position);
  });

  it('are refused by an instance with another secret or with none', () => {
    const cursor = createPageCursors(secret).encode('rated', 'alice', position);
    for (const other of [createPageCursors(`${secret}!`), createPageCursors()]) {
      expect(() => other.decode('rated', 'alice', cursor)).toThrow(expect.objectContaining({ code: 'invalid_cursor' }));
    }
  });
});

import { describe, expect, it } from 'vitest';
import { parseEnvText } from '../src/env-file.js';

// Issue 39: `.env` as editors write it. Node's parser is the reader; these are the two cases it gets wrong.
describe('reading .env', () => {
  it('skips a UTF-8 byte order mark, so the first variable keeps its name', () => {
    expect(parseEnvText('/srv/.env', '\ufeffJWT_SECRET=abc\r\nPORT=3000\r\n')).toEqual({
      JWT_SECRET: 'abc',
      PORT: '3000',
    });
  });

  it('refuses a quote that does not close on its line, naming the file and the line', () => {
    const text = 'PORT=3000\n# the secret\nJWT_SECRET="abc\nLOG_LEVEL="info"\n';
    expect(() => parseEnvText('/srv/.env', text)).toThrow(
      '/srv/.env:3: the value of JWT_SECRET opens a quote (") that does not close on its line: close it, or remove the quote.',
    );
    expect(() => parseEnvText('/srv/.env', "export NAME='x")).toThrow(
      "/srv/.env:1: the value of NAME opens a quote (')",
    );
  });

  it('reads quoted values, comments and quotes inside values as Node does', () => {
    expect(parseEnvText('/srv/.env', 'A="x y" # note\nB=\'it"s\'\nC=plain"quote\n#D=1\n')).toEqual({
      A: 'x y',
      B: 'it"s',
      C: 'plain"quote',
    });
  });
});

import { SseParser, type SseMessage } from '@canteen-meals/client';
import { describe, expect, it } from 'vitest';

const stream =
  ': a comment\r\n' +
  'retry: 1000\n' +
  'id: t.0\nevent: snapshot\ndata: {"meals":[]}\n\n' +
  'id: t.1\r\nevent: stats\r\ndata:{"a":\r\ndata:  1}\r\n\r\n' +
  ': heartbeat\n\n' +
  'data: no type, id carried over\r\r' +
  'id: bad\0id\nevent: ignored-without-data\n\n' +
  'data: ünïcödé 🍲\n\n';

const expected: SseMessage[] = [
  { event: 'snapshot', data: '{"meals":[]}', id: 't.0' },
  { event: 'stats', data: '{"a":\n 1}', id: 't.1' },
  { event: 'message', data: 'no type, id carried over', id: 't.1' },
  { event: 'message', data: 'ünïcödé 🍲', id: 't.1' },
];

describe('the SSE parser', () => {
  it('parses fields, comments, the three line ends and blank-line dispatch', () => {
    expect(new SseParser().push(stream)).toEqual(expected);
  });

  it('gives the same events however the text is cut', () => {
    for (let cut = 1; cut < stream.length; cut++) {
      const parser = new SseParser();
      expect([...parser.push(stream.slice(0, cut)), ...parser.push(stream.slice(cut))], `cut at ${cut}`).toEqual(
        expected,
      );
    }
    const parser = new SseParser();
    expect([...stream].flatMap((char) => parser.push(char))).toEqual(expected);
  });

  it('keeps an unfinished event until its blank line', () => {
    const parser = new SseParser();
    expect(parser.push('id: 1\ndata: x\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'message', data: 'x', id: '1' }]);
  });
});

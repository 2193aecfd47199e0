import { TextDecoder } from 'node:util';
import { OpenMensaFeedError } from './feed-error.js';

/**
 * The text of a feed file: UTF-8 unless a byte order mark or the XML declaration says otherwise (old canteen
 * systems still write ISO-8859-1). Bytes that are not valid in the encoding are refused, not replaced.
 */
export function decodeFeed(bytes: Uint8Array): string {
  const encoding = byteOrderMarkEncoding(bytes) ?? declaredEncoding(bytes) ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(encoding, { fatal: true });
  } catch {
    throw new OpenMensaFeedError([{ line: 1, message: `the XML declaration names an unknown encoding "${encoding}"` }]);
  }
  try {
    return decoder.decode(bytes);
  } catch {
    const line = lineOfFirstBadByte(bytes, encoding);
    throw new OpenMensaFeedError([{ line, message: `the file is not valid ${decoder.encoding}` }]);
  }
}

function byteOrderMarkEncoding(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

function declaredEncoding(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
  return /^<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z][\w.:-]*)["']/.exec(head)?.[1]?.toLowerCase();
}

/** For the message: the first line that does not decode (UTF-8 and Latin-1 share the newline byte). */
function lineOfFirstBadByte(bytes: Uint8Array, encoding: string): number {
  const decoder = new TextDecoder(encoding, { fatal: true });
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index <= bytes.length; index += 1) {
    if (index < bytes.length && bytes[index] !== 0x0a) continue;
    try {
      decoder.decode(bytes.subarray(lineStart, index));
    } catch {
      return line;
    }
    line += 1;
    lineStart = index + 1;
  }
  return line;
}

import iconv from 'iconv-lite';
import { TextDecoder } from 'node:util';
import { OpenMensaFeedError } from './feed-error.js';

/**
 * The text of a feed file: UTF-8 unless a byte order mark or the XML declaration says otherwise (old canteen
 * systems still write ISO-8859-1 or windows-1252). Labels are read as the WHATWG Encoding Standard reads them, so
 * `iso-8859-1`, `latin1` and `us-ascii` mean windows-1252, as in every browser. Bytes that are not valid in the
 * encoding are refused, not replaced.
 */
export function decodeFeed(bytes: Uint8Array): string {
  const label = byteOrderMarkEncoding(bytes) ?? declaredEncoding(bytes) ?? 'utf-8';
  const encoding = whatwgNameOf(label);
  if (encoding === undefined) {
    throw new OpenMensaFeedError([{ line: 1, message: `the XML declaration names an unknown encoding "${label}"` }]);
  }
  const decode = singleByteEncodings.has(encoding) ? singleByteDecoder(encoding) : multiByteDecoder(encoding);
  const text = decode(bytes);
  if (text === undefined) {
    throw new OpenMensaFeedError([
      { line: lineOfFirstBadByte(bytes, decode), message: `the file is not valid ${encoding}` },
    ]);
  }
  return text;
}

/** A decoder that answers undefined for bytes the encoding does not define. */
type Decode = (bytes: Uint8Array) => string | undefined;

/** The encoding a label stands for (WHATWG's table of labels, as Node's TextDecoder knows it), or undefined. */
function whatwgNameOf(label: string): string | undefined {
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return undefined;
  }
}

/**
 * WHATWG's legacy single-byte encodings. Node 20's TextDecoder decodes windows-1252 as ISO-8859-1 (0x80-0x9F become
 * C1 controls instead of €, „, “, …), so these go through iconv-lite, whose tables are the standard's.
 */
const singleByteEncodings = new Set([
  'ibm866',
  'iso-8859-2',
  'iso-8859-3',
  'iso-8859-4',
  'iso-8859-5',
  'iso-8859-6',
  'iso-8859-7',
  'iso-8859-8',
  'iso-8859-8-i',
  'iso-8859-10',
  'iso-8859-13',
  'iso-8859-14',
  'iso-8859-15',
  'iso-8859-16',
  'koi8-r',
  'koi8-u',
  'macintosh',
  'windows-874',
  'windows-1250',
  'windows-1251',
  'windows-1252',
  'windows-1253',
  'windows-1254',
  'windows-1255',
  'windows-1256',
  'windows-1257',
  'windows-1258',
  'x-mac-cyrillic',
]);

/** iconv-lite's names where they differ from WHATWG's. */
const iconvNames: Readonly<Record<string, string>> = { 'x-mac-cyrillic': 'maccyrillic', 'iso-8859-8-i': 'iso-8859-8' };

/** A byte the encoding leaves undefined (0x81 in windows-1252) decodes to U+FFFD, which no single byte stands for. */
const singleByteDecoder =
  (encoding: string): Decode =>
  (bytes) => {
    const text = iconv.decode(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      iconvNames[encoding] ?? encoding,
    );
    return text.includes('\uFFFD') ? undefined : text;
  };

const multiByteDecoder = (encoding: string): Decode => {
  const decoder = new TextDecoder(encoding, { fatal: true });
  return (bytes) => {
    try {
      return decoder.decode(bytes);
    } catch {
      return undefined;
    }
  };
};

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

/**
 * For the message: the first line that does not decode (UTF-8 and the single-byte encodings share the newline byte).
 */
function lineOfFirstBadByte(bytes: Uint8Array, decode: Decode): number {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index <= bytes.length; index += 1) {
    if (index < bytes.length && bytes[index] !== 0x0a) continue;
    if (decode(bytes.subarray(lineStart, index)) === undefined) return line;
    line += 1;
    lineStart = index + 1;
  }
  return line;
}

import type { IncomingMessage } from 'node:http';
import { pipeline, Transform, type Duplex } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { FeedFetchError } from './feed-fetch-error.js';

/** The encodings asked for in Accept-Encoding, each with its decoder. */
const decoders: Record<string, () => Duplex> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

export const acceptEncoding = 'gzip, deflate, br';

/**
 * Reads an answer's body, decoded, refusing it as soon as either the bytes on the wire or the decoded bytes pass
 * `maxBytes`: a declared Content-Length is only an early exit, the count is what holds (a gzip bomb is small on the
 * wire). Refusing destroys the stream, which closes the connection.
 */
export async function readLimitedBody(response: IncomingMessage, url: string, maxBytes: number): Promise<Buffer> {
  const tooLarge = () => new FeedFetchError('too_large', url, `the body is larger than ${maxBytes} bytes`);
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw tooLarge();
  }

  const encoding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const decoder = decoders[encoding];
  if (!decoder && encoding !== 'identity') {
    response.destroy();
    throw new FeedFetchError('network', url, `unsupported content encoding "${encoding}"`);
  }

  let wireBytes = 0;
  const wireLimit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      wireBytes += chunk.length;
      done(wireBytes > maxBytes ? tooLarge() : null, chunk);
    },
  });
  const body = decoder ? decoder() : wireLimit;
  // Errors reach the loop below through `body`, which pipeline destroys with them.
  pipeline(decoder ? [response, wireLimit, body] : [response, wireLimit], () => {});

  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) throw tooLarge();
      chunks.push(chunk);
    }
  } catch (error) {
    response.destroy();
    if (error instanceof FeedFetchError) throw error;
    throw new FeedFetchError(
      'network',
      url,
      decoder ? `the body could not be read or decoded (${encoding})` : 'the body could not be read',
    );
  }
  return Buffer.concat(chunks, size);
}

/** Reads up to `maxBytes` of an answer's body and drops them; a longer body is cut off by closing the connection. */
export function drain(response: IncomingMessage, maxBytes: number): Promise<void> {
  return new Promise((resolve) => {
    let read = 0;
    const done = () => {
      response.destroy();
      resolve();
    };
    response.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > maxBytes) done();
    });
    response.once('end', done);
    response.once('error', done);
    response.once('close', done);
  });
}

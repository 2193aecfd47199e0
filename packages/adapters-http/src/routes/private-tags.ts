import { createHmac, randomBytes } from 'node:crypto';

/**
 * The ETag of an answer that holds the caller's own state (GET /me/meals): an HMAC-SHA256 of the body, 128 bits,
 * keyed from the cursor secret. A bare hash gave the body away to whoever saw the tag (a log line, a proxy): the few
 * markings and ratings of a day's menu were recovered in 10 guesses. Instances that share the cursor secret agree on
 * the tags; without one, a random key of this process stands in (another instance answers 200 instead of 304).
 */
export function createPrivateTags(secret?: string): (body: string) => string {
  const material = secret === undefined || secret === '' ? randomBytes(32) : Buffer.from(secret, 'utf8');
  // A key of its own, derived from the secret: a tag is never a valid cursor MAC, nor the reverse.
  const key = createHmac('sha256', material).update('etag of private answers').digest();
  const tagOf = (body: string) =>
    `"${createHmac('sha256', key).update(body).digest().subarray(0, 16).toString('base64url')}"`;
  // The tags of the bodies answered last: a person's overlay is the same body until they mark or rate, and the HMAC
  // was the largest part of GET /me/meals left once its read was kept (docs/benchmarks.md). The first kept goes first.
  const kept = new Map<string, string>();
  return (body) => {
    let tag = kept.get(body);
    if (tag === undefined) {
      tag = tagOf(body);
      if (kept.size >= keptTags) kept.delete(kept.keys().next().value!);
      kept.set(body, tag);
    }
    return tag;
  };
}

/** About one answer per user of a busy instance; each entry is the body (a few hundred bytes) and its tag. */
const keptTags = 10_000;

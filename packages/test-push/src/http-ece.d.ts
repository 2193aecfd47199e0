// http_ece ships no types: the part of its API the test push service uses.
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';

  interface DecryptParams {
    readonly version: 'aes128gcm';
    /** The receiver's key pair: the sender's public key comes from the record's header (its keyid). */
    readonly privateKey: ECDH;
    /** The subscription's authentication secret: a Buffer, or base64url text. */
    readonly authSecret: Buffer | string;
  }

  /** Decrypts an RFC 8188 body; throws when it cannot (a wrong key, a changed byte, a bad padding). */
  export function decrypt(buffer: Buffer, params: DecryptParams): Buffer;
}

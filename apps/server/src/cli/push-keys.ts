// `pnpm push-keys`: a new VAPID key pair for Web Push (RFC 8292), printed as the three lines of `.env` that turn push
// on (the subject to be set to the operator's address). The keys are an ECDSA P-256 pair in base64url: the public key
// uncompressed (65 bytes), the private key its 32-byte scalar, as the `web-push` package writes them.
import { createECDH } from 'node:crypto';

const usage =
  'usage: pnpm push-keys   (prints WEB_PUSH_PUBLIC_KEY, WEB_PUSH_PRIVATE_KEY and WEB_PUSH_SUBJECT for .env)';
if (process.argv.slice(2).some((arg) => arg === '--help' || arg === '-h')) {
  console.log(usage);
  process.exit(0);
}
if (process.argv.length > 2) {
  console.error(usage);
  process.exit(1);
}
const ecdh = createECDH('prime256v1');
ecdh.generateKeys();
// The private scalar padded to its 32 bytes (getPrivateKey drops leading zero bytes).
const privateKey = Buffer.concat([Buffer.alloc(32), ecdh.getPrivateKey()]).subarray(-32);
console.log(`WEB_PUSH_PUBLIC_KEY=${ecdh.getPublicKey().toString('base64url')}`);
console.log(`WEB_PUSH_PRIVATE_KEY=${privateKey.toString('base64url')}`);
console.log('WEB_PUSH_SUBJECT=mailto:you@example.edu');

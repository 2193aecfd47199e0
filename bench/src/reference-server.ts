import { readFileSync } from 'node:fs';
import { buildReferenceApp, type ReferenceAnswers } from './reference-app.js';

// Started by the bench as its own process, like the real server, so that both compete for the CPU alike.
const answers = JSON.parse(readFileSync(process.env.REFERENCE_ANSWERS_FILE!, 'utf8')) as ReferenceAnswers;
const app = buildReferenceApp(answers);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });

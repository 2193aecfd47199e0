// The admin console's bootstrap (/admin): a session whose token may manage a canteen at least (`meals:manage` there, or
// `meals:write`; signed in at the identity provider, or a pasted token), then the console on the API with that token,
// showing what the token may do (GET /me/access). Without one, session.ts has put its
// screen in place (sign in, how to configure, not allowed).
import { pageClient } from '../shared/api.js';
import { required } from '../shared/dom.js';
import { pageLanguage } from '../shared/language.js';
import { startSession } from '../shared/session.js';
import { mountConsole } from './console-app.js';

const root = required('app', HTMLElement);
const language = pageLanguage();
const session = await startSession(root, { language, requiredScope: 'meals:manage' });
if (session !== null) {
  const client = pageClient(() => session.getToken());
  mountConsole(root, {
    client,
    access: await client.getMyAccess(),
    language,
    signOut: () => void session.signOut(),
    user: session.user,
  });
}

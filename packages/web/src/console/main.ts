// The admin console's bootstrap (/admin): a session whose token carries `meals:write` (signed in at the identity
// provider, or a pasted token), then the console on the API with that token. Without one, session.ts has put its
// screen in place (sign in, how to configure, not allowed).
import { pageClient } from '../shared/api.js';
import { required } from '../shared/dom.js';
import { pageLanguage } from '../shared/language.js';
import { startSession } from '../shared/session.js';
import { mountConsole } from './console-app.js';

const root = required('app', HTMLElement);
const language = pageLanguage();
const session = await startSession(root, { language, requiredScope: 'meals:write' });
if (session !== null) {
  mountConsole(root, {
    client: pageClient(() => session.getToken()),
    language,
    signOut: () => void session.signOut(),
    user: session.user,
  });
}

// TEMPORARY (branch i28-console): the sign-in branch (i28-signin) owns this bootstrap and replaces it.
import { pageClient } from '../shared/api.js';
import { required } from '../shared/dom.js';
import { pageLanguage } from '../shared/language.js';
import { startSession } from '../shared/session.js';
import { mountConsole } from './console-app.js';

const language = pageLanguage();
const root = required('app', HTMLElement);
const session = await startSession(root, { language, requiredScope: 'meals:write' });
if (session !== null) {
  mountConsole(root, { client: pageClient(() => session.getToken()), language, user: session.user, signOut: () => void session.signOut() });
}

// The kitchen dashboard's page: which mode (?mode=kitchen|wall, else the dashboard), which canteen, then the board.
// It reads only the API of its own origin (the CSP allows nothing else). Every text comes from texts.ts in the
// page's language.
import './dashboard.css';
import type { Canteen } from '@canteen-meals/client';
import { messageOf, pageClient } from '../shared/api.js';
import { element, required } from '../shared/dom.js';
import { pageLanguage } from '../shared/language.js';
import { startSession } from '../shared/session.js';
import { accessAllowsAt, type PageAccess } from '../shared/sign-in-settings.js';
import { isSignInCallback } from '../shared/sign-in-settings.js';
import { mountBoard, type BoardMode } from './board.js';
import { browserScheduler } from './scheduler.js';
import { texts } from './texts.js';

const language = pageLanguage();
const t = texts[language];
const asked = new URL(location.href).searchParams;
const modeAsked = asked.get('mode');
// Back from the identity provider (its answer in the fragment, the page's own query left behind): only the kitchen's
// mode signs in, and the session takes the answer and loads the page again as it was asked for, ?mode=kitchen included.
const mode: BoardMode = isSignInCallback(location.hash)
  ? 'kitchen'
  : modeAsked === 'kitchen' || modeAsked === 'wall'
    ? modeAsked
    : 'board';
const root = required('app', HTMLElement);
// The style sheet's modes (the wall's fixed screen, the kitchen's large buttons) hang on this.
document.documentElement.dataset.mode = mode;

function problem(text: string) {
  const line = element('p', '', text);
  line.id = 'status';
  line.setAttribute('role', 'status');
  line.dataset.kind = 'error';
  root.replaceChildren(element('h1', '', t.heading), line);
}

/** A wall opened without a canteen asks which one (a link each, to bookmark), rather than guess. */
function chooseCanteen(canteens: readonly Canteen[]) {
  const list = element('ul', 'canteen-choice');
  for (const canteen of canteens) {
    const url = new URL(location.href);
    url.searchParams.set('canteen', canteen.canteen_id);
    const link = element('a', '', canteen.name);
    link.href = url.pathname + url.search;
    const item = element('li');
    item.append(link);
    list.append(item);
  }
  const main = element('main');
  main.append(list);
  root.replaceChildren(element('h1', '', t.chooseCanteen), main);
}

async function start() {
  let signOut: (() => void) | undefined;
  let client = pageClient();
  let access: PageAccess | undefined;
  if (mode === 'kitchen') {
    const session = await startSession(root, {
      language,
      requiredScope: 'meals:kitchen',
      onAccess: (granted) => {
        access = granted;
      },
    });
    if (session === null) return;
    client = pageClient(() => session.getToken());
    signOut = () => void session.signOut();
  }
  let canteens: readonly Canteen[];
  try {
    canteens = (await client.listCanteens()).canteens;
    // The kitchen's mode offers the canteens whose kitchen the person is: one canteen's kitchen opens on it.
    if (mode === 'kitchen') {
      const granted = access ?? (await client.getMyAccess());
      canteens = canteens.filter((canteen) => accessAllowsAt(granted, 'meals:kitchen', canteen.canteen_id));
    }
  } catch (error) {
    problem(t.canteensUnavailable(messageOf(error)));
    return;
  }
  const wanted = canteens.find((canteen) => canteen.canteen_id === asked.get('canteen'));
  if (mode === 'wall' && wanted === undefined) {
    chooseCanteen(canteens);
    return;
  }
  const canteen = wanted ?? canteens[0];
  if (canteen === undefined) {
    problem(t.noCanteen);
    return;
  }
  mountBoard(root, {
    mode,
    language,
    client,
    scheduler: browserScheduler,
    canteens,
    canteen,
    day: asked.get('date'),
    ...(signOut === undefined ? {} : { signOut }),
  });
}

void start();

// PLACEHOLDER until the console (branch i28-console) is merged: the merger takes that branch's console-app.ts. It
// implements the agreed interface, `mountConsole(root, context)`, with the least the sign-in needs to be seen working:
// who is signed in, a sign-out button, and the canteens from the admin's list.
import type { MealsClient } from '@canteen-meals/client';
import { messageOf } from '../shared/api.js';
import { element } from '../shared/dom.js';
import type { Language } from '../shared/language.js';
import { texts } from './texts.js';

export interface ConsoleContext {
  readonly client: MealsClient;
  readonly language: Language;
  signOut(): void;
  readonly user: string;
}

export function mountConsole(root: HTMLElement, context: ConsoleContext): void {
  const t = texts[context.language];
  const header = element('header');
  const signOut = element('button', '', t.signOut);
  signOut.type = 'button';
  signOut.addEventListener('click', () => context.signOut());
  const user = element('p', 'signed-in-user', t.signedInAs(context.user));
  header.append(element('h1', '', t.heading), user, signOut);
  const main = element('main');
  const heading = element('h2', '', t.canteens);
  heading.id = 'canteens-heading';
  const list = element('ul');
  list.id = 'canteens';
  list.setAttribute('aria-labelledby', heading.id);
  const status = element('p');
  status.setAttribute('role', 'status');
  main.append(heading, status, list);
  root.replaceChildren(header, main);
  context.client
    .listAdminCanteens()
    .then(({ canteens }) => {
      list.replaceChildren(...canteens.map((canteen) => element('li', '', `${canteen.name} (${canteen.canteen_id})`)));
      status.textContent = canteens.length === 0 ? t.noCanteens : '';
    })
    .catch((error: unknown) => {
      status.textContent = t.loadFailed(messageOf(error));
    });
}

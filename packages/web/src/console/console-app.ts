// The admin console at /admin: canteens, feeds, a day's menu, webhooks and the ratings report, on the admin API
// through the client package. The session (who signed in, the token, signing out) is the bootstrap's (main.ts).
import './console.css';
import type { MealsClient } from '@canteen-meals/client';
import { element } from '../shared/dom.js';
import type { Language } from '../shared/language.js';
import { canteensSection } from './sections/canteens.js';
import { dayMenuSection } from './sections/day-menu.js';
import { feedsSection } from './sections/feeds.js';
import { ratingsReportSection } from './sections/ratings-report.js';
import { webhooksSection } from './sections/webhooks.js';
import { texts, type ConsoleTexts } from './texts.js';
import { button, type SectionContext } from './ui.js';
import { instantFormat } from './wording.js';

export interface ConsoleContext {
  readonly client: MealsClient;
  readonly language: Language;
  signOut(): void;
  readonly user: string;
}

export type SectionName = 'canteens' | 'feeds' | 'menu' | 'webhooks' | 'report';

const sections: readonly (readonly [SectionName, (context: SectionContext) => HTMLElement, (t: ConsoleTexts) => string])[] = [
  ['canteens', canteensSection, (t) => t.canteens],
  ['feeds', feedsSection, (t) => t.feedsHeading],
  ['menu', dayMenuSection, (t) => t.dayMenu],
  ['webhooks', webhooksSection, (t) => t.webhooks],
  ['report', ratingsReportSection, (t) => t.report],
];

/** Fills `root` with the console: a header (who is signed in, signing out), the sections' navigation, one section. */
export function mountConsole(root: HTMLElement, context: ConsoleContext): void {
  const t = texts[context.language];
  const sectionContext: SectionContext = { client: context.client, language: context.language, t, when: instantFormat(context.language) };
  document.title = t.title;

  const header = element('header', 'console-header');
  const user = element('p', 'user', t.signedInAs(context.user));
  user.id = 'signed-in-user';
  const signOut = button(t.signOut);
  signOut.id = 'sign-out';
  signOut.addEventListener('click', () => context.signOut());
  const nav = element('nav');
  nav.setAttribute('aria-label', t.sectionsLabel);
  const tabs = element('ul');
  nav.append(tabs);
  header.append(element('h1', '', t.heading), user, signOut, nav);
  const main = element('main');
  main.id = 'console-main';
  root.replaceChildren(header, main);

  const tabButtons = new Map<SectionName, HTMLButtonElement>();
  function open(name: SectionName, focus: boolean) {
    const [, mount, heading] = sections.find(([each]) => each === name)!;
    for (const [each, tab] of tabButtons) {
      if (each === name) tab.setAttribute('aria-current', 'page');
      else tab.removeAttribute('aria-current');
    }
    const node = mount(sectionContext);
    main.replaceChildren(node);
    document.title = `${heading(t)} · ${t.title}`;
    // A keyboard or screen reader user lands on the new section, not back at the top of the page.
    if (focus) node.querySelector<HTMLElement>('h2')?.focus();
  }
  for (const [name, , heading] of sections) {
    const tab = button(heading(t));
    tab.dataset.section = name;
    tab.addEventListener('click', () => open(name, true));
    tabButtons.set(name, tab);
    const item = element('li');
    item.append(tab);
    tabs.append(item);
  }
  open('canteens', false);
}

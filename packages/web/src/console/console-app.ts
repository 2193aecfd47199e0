// The admin console at /admin: canteens, feeds, a day's menu, webhooks and the ratings report, on the admin API
// through the client package. The session (who signed in, the token, signing out) is the bootstrap's (main.ts).
import './console.css';
import type { MealsClient } from '@canteen-meals/client';
import { element } from '../shared/dom.js';
import { accessAllows, type PageAccess } from '../shared/sign-in-settings.js';
import type { Language } from '../shared/language.js';
import { activitySection } from './sections/activity.js';
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
  /** What the signed-in person may do (GET /me/access): the sections and actions shown follow it. */
  readonly access: PageAccess;
  readonly language: Language;
  signOut(): void;
  readonly user: string;
}

export type SectionName = 'canteens' | 'feeds' | 'menu' | 'webhooks' | 'report' | 'activity';

const allSections: readonly (readonly [
  SectionName,
  (context: SectionContext) => HTMLElement,
  (t: ConsoleTexts) => string,
  /** Shown to whom: a scope at some canteen, or (`every`) at every canteen. */
  readonly [string, 'some' | 'every'],
])[] = [
  ['canteens', canteensSection, (t) => t.canteens, ['meals:manage', 'some']],
  ['feeds', feedsSection, (t) => t.feedsHeading, ['meals:manage', 'some']],
  ['menu', dayMenuSection, (t) => t.dayMenu, ['meals:manage', 'some']],
  // The webhooks concern every canteen: the global admin's alone.
  ['webhooks', webhooksSection, (t) => t.webhooks, ['meals:write', 'every']],
  ['report', ratingsReportSection, (t) => t.report, ['meals:read-reports', 'some']],
  // Who changed what: an admin every entry, a manager their canteens' (the server cuts the list).
  ['activity', activitySection, (t) => t.activity, ['meals:manage', 'some']],
];

/** The sections the person may use: a manager of some canteens sees theirs, without the webhooks. */
export function sectionsFor(access: PageAccess): readonly SectionName[] {
  return allSections
    .filter(([, , , [scope, where]]) =>
      where === 'every' ? access.global.includes(scope) : accessAllows(access, scope),
    )
    .map(([name]) => name);
}

/** Fills `root` with the console: a header (who is signed in, signing out), the sections' navigation, one section. */
export function mountConsole(root: HTMLElement, context: ConsoleContext): void {
  const t = texts[context.language];
  const shown = sectionsFor(context.access);
  const sections = allSections.filter(([name]) => shown.includes(name));
  const sectionContext: SectionContext = {
    client: context.client,
    access: context.access,
    language: context.language,
    t,
    when: instantFormat(context.language),
  };
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

  const tabLinks = new Map<SectionName, HTMLAnchorElement>();
  function open(name: SectionName, focus: boolean) {
    const [, mount, heading] = sections.find(([each]) => each === name)!;
    for (const [each, tab] of tabLinks) {
      if (each === name) tab.setAttribute('aria-current', 'page');
      else tab.removeAttribute('aria-current');
    }
    const node = mount(sectionContext);
    main.replaceChildren(node);
    document.title = `${heading(t)} · ${t.title}`;
    // A keyboard or screen reader user lands on the new section, not back at the top of the page.
    if (focus) node.querySelector<HTMLElement>('h2')?.focus();
  }
  // Each section has its URL (`?section=feeds`, the language kept): a link to share or bookmark, and the back button
  // goes to the section before. Moving between them is a history entry, not a page load.
  for (const [name, , heading] of sections) {
    const tab = element('a', 'button', heading(t));
    tab.href = sectionHref(name);
    tab.dataset.section = name;
    tab.addEventListener('click', (event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      history.pushState(null, '', tab.href);
      open(name, true);
    });
    tabLinks.set(name, tab);
    const item = element('li');
    item.append(tab);
    tabs.append(item);
  }
  addEventListener('popstate', () => open(sectionOfUrl(shown), false));
  open(sectionOfUrl(shown), false);
}

/** The section the address names (`?section=`) when it is shown, else the first shown (the canteens). */
function sectionOfUrl(shown: readonly SectionName[]): SectionName {
  const asked = new URL(location.href).searchParams.get('section');
  return shown.find((name) => name === asked) ?? shown[0] ?? 'canteens';
}

/** The console's address with that section (the canteens: none), its other parameters kept. */
function sectionHref(name: SectionName): string {
  const url = new URL(location.href);
  url.hash = '';
  if (name === 'canteens') url.searchParams.delete('section');
  else url.searchParams.set('section', name);
  return `${url.pathname}${url.search}`;
}

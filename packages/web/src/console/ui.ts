// The console's building blocks: a section with its notices, labelled fields, buttons, an inline confirmation. Text is
// always set as text (names come from feeds and admins).
import type { PageAccess } from '../shared/sign-in-settings.js';
import type { MealsClient } from '@canteen-meals/client';
import { messageOf } from '../shared/api.js';
import { element } from '../shared/dom.js';
import type { Language } from '../shared/language.js';
import type { AdminCanteen } from './canteen-form.js';
import type { ConsoleTexts } from './texts.js';

/** What every section is given. */
export interface SectionContext {
  readonly client: MealsClient;
  /** What the signed-in person may do, at every canteen and per canteen (GET /me/access). */
  readonly access: PageAccess;
  readonly language: Language;
  readonly t: ConsoleTexts;
  /** An instant in the page's language. */
  readonly when: (instant: string) => string;
}

export interface Notices {
  /** A success, read out politely. */
  done(text: string): void;
  /** A failure: the API's own message (the envelope's), read out at once. */
  fail(error: unknown): void;
  clear(): void;
}

/** A section: its heading (focused when the section is opened), a success line and an error line. */
export function sectionShell(name: string, heading: string): { section: HTMLElement; notices: Notices } {
  const section = element('section', 'console-section');
  section.id = `section-${name}`;
  const title = element('h2', '', heading);
  title.id = `${name}-heading`;
  title.tabIndex = -1;
  section.setAttribute('aria-labelledby', title.id);
  const notices = noticeLines();
  section.append(title, notices.node);
  return { section, notices: notices.notices };
}

/** A success line (role status) and an error line (role alert), for a section or a card. */
export function noticeLines(): { node: HTMLElement; notices: Notices } {
  const node = element('div', 'notices');
  const status = element('p', 'notice done');
  status.setAttribute('role', 'status');
  const alert = element('p', 'notice error');
  alert.setAttribute('role', 'alert');
  node.append(status, alert);
  const notices: Notices = {
    done(text) {
      alert.textContent = '';
      status.textContent = text;
    },
    fail(error) {
      status.textContent = '';
      alert.textContent = typeof error === 'string' ? error : messageOf(error);
    },
    clear() {
      status.textContent = '';
      alert.textContent = '';
    },
  };
  return { node, notices };
}

export function button(text: string, className = ''): HTMLButtonElement {
  const node = element('button', className, text);
  node.type = 'button';
  return node;
}

/** A control with its label above it and a line for its problem (tied by aria-describedby). */
type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

export interface Field<Kind extends Control = Control> {
  readonly wrapper: HTMLElement;
  readonly control: Kind;
  showProblem(text: string | null): void;
}

export function field<Kind extends Control>(id: string, label: string, control: Kind, hint?: string): Field<Kind> {
  control.id = id;
  control.name = id;
  const wrapper = element('div', 'field');
  const labelNode = element('label', '', label);
  labelNode.htmlFor = id;
  const problem = element('p', 'problem');
  problem.id = `${id}-problem`;
  problem.hidden = true;
  const described = [problem.id];
  wrapper.append(labelNode);
  if (hint !== undefined) {
    const hintNode = element('p', 'hint', hint);
    hintNode.id = `${id}-hint`;
    described.unshift(hintNode.id);
    wrapper.append(hintNode);
  }
  control.setAttribute('aria-describedby', described.join(' '));
  wrapper.append(control, problem);
  return {
    wrapper,
    control,
    showProblem(text: string | null) {
      problem.hidden = text === null;
      problem.textContent = text ?? '';
      if (text === null) control.removeAttribute('aria-invalid');
      else control.setAttribute('aria-invalid', 'true');
    },
  };
}

export function textInput(type: 'text' | 'url' | 'date' | 'search' = 'text', value = ''): HTMLInputElement {
  const node = element('input');
  node.type = type;
  node.value = value;
  return node;
}

/** Runs the action with the button disabled (no double submit), reporting its failure in words. */
export async function whileBusy(
  control: HTMLButtonElement,
  notices: Notices,
  action: () => Promise<void>,
): Promise<void> {
  control.disabled = true;
  control.setAttribute('aria-busy', 'true');
  try {
    await action();
  } catch (error) {
    notices.fail(error);
  } finally {
    control.disabled = false;
    control.removeAttribute('aria-busy');
  }
}

/**
 * Asks in place, instead of the button row: the question, a button that does it and one that does not. In the page,
 * not a browser dialog: it reads the same on a phone and to a screen reader, and is reached by keyboard.
 */
export function confirmInPlace(
  host: HTMLElement,
  question: string,
  confirmText: string,
  t: ConsoleTexts,
  notices: Notices,
  action: () => Promise<void>,
): void {
  const before = [...host.childNodes];
  const ask = element('p', 'question', question);
  const yes = button(confirmText, 'danger');
  const no = button(t.cancel);
  const restore = () => {
    host.replaceChildren(...before);
    (before.find((node) => node instanceof HTMLButtonElement) as HTMLButtonElement | undefined)?.focus();
  };
  no.addEventListener('click', restore);
  yes.addEventListener('click', () => void whileBusy(yes, notices, action).then(() => host.isConnected && restore()));
  const row = element('div', 'actions');
  row.append(yes, no);
  host.replaceChildren(ask, row);
  no.focus();
}

/** A select of canteens (by name), the first chosen unless `selected` names another. */
export function canteenSelect(canteens: readonly AdminCanteen[], selected?: string): HTMLSelectElement {
  const select = element('select');
  select.append(
    ...canteens.map((canteen) => {
      const option = element('option', '', `${canteen.name} (${canteen.canteen_id})`);
      option.value = canteen.canteen_id;
      return option;
    }),
  );
  if (selected !== undefined && canteens.some((canteen) => canteen.canteen_id === selected)) select.value = selected;
  return select;
}

/** The active canteens (archived ones have no menus, feeds nor reports to work on). */
export async function activeCanteens(client: MealsClient): Promise<AdminCanteen[]> {
  return (await client.listAdminCanteens()).canteens.filter((canteen) => canteen.archived_at === null);
}

/** A definition list of label and value pairs. */
export function facts(pairs: readonly (readonly [string, string])[]): HTMLDListElement {
  const list = element('dl', 'facts');
  for (const [term, value] of pairs) {
    const row = element('div');
    row.append(element('dt', '', term), element('dd', '', value));
    list.append(row);
  }
  return list;
}

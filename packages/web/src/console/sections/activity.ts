// The activity: who changed what with a staff scope (the audit trail, GET /admin/audit), newest first, filtered by
// canteen, person and action, a page at a time. A manager sees the entries of their canteens (the server cuts them).
import type { AuditEntry, AuditRequest } from '@canteen-meals/client';
import { element } from '../../shared/dom.js';
import type { ConsoleTexts } from '../texts.js';
import { activeCanteens, button, field, sectionShell, textInput, whileBusy, type SectionContext } from '../ui.js';

const pageSize = 50;

export function activitySection(context: SectionContext): HTMLElement {
  const { t, client, when } = context;
  const { section, notices } = sectionShell('activity', t.activity);
  section.append(element('p', 'hint', t.activityHint));
  const form = element('form', 'picker');
  form.noValidate = true;
  const canteenChoice = element('select');
  canteenChoice.append(option('', t.allCanteens));
  const canteen = field('activity-canteen', t.canteen, canteenChoice);
  const person = field('activity-person', t.activityPerson, textInput('search'));
  const actionChoice = element('select');
  actionChoice.append(
    option('', t.anyAction),
    ...Object.entries(t.auditActions).map(([action, words]) => option(action, words)),
  );
  const action = field('activity-action', t.activityAction, actionChoice);
  const show = element('button', 'primary', t.showActivity);
  show.type = 'submit';
  form.append(canteen.wrapper, person.wrapper, action.wrapper, show);
  const table = element('table', 'activity');
  table.id = 'activity-list';
  const caption = element('caption', '', t.activity);
  const head = element('thead');
  const headRow = element('tr');
  for (const column of t.activityColumns) headRow.append(element('th', '', column));
  head.append(headRow);
  const body = element('tbody');
  table.append(caption, head, body);
  const more = button(t.moreActivity);
  more.hidden = true;
  const exportCsv = button(t.exportActivity);
  const download = element('p', 'download');
  download.id = 'activity-download';
  section.append(form, exportCsv, download, table, more);
  let link: string | null = null;

  let cursor: string | null = null;
  let filters: AuditRequest = {};

  async function load(append: boolean): Promise<void> {
    const page = await client.listAuditEntries({
      ...filters,
      limit: pageSize,
      ...(append && cursor !== null ? { cursor } : {}),
    });
    if (!append) body.replaceChildren();
    body.append(...page.entries.map((entry) => row(entry, t, when)));
    cursor = page.next_cursor;
    more.hidden = cursor === null;
    const shown = body.childElementCount;
    notices.done(shown === 0 ? t.noActivity : t.activityShown(shown));
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const actor = person.control.value.trim();
    filters = {
      ...(canteen.control.value === '' ? {} : { canteen: canteen.control.value }),
      ...(actor === '' ? {} : { actor }),
      ...(action.control.value === '' ? {} : { action: action.control.value as AuditEntry['action'] }),
    };
    void whileBusy(show, notices, () => load(false));
  });
  more.addEventListener('click', () => void whileBusy(more, notices, () => load(true)));
  // The chosen filters' whole trail as CSV, fetched with the token and offered as a download (as the ratings report).
  exportCsv.addEventListener(
    'click',
    () =>
      void whileBusy(exportCsv, notices, async () => {
        const csv = await client.exportAuditEntries(filters);
        const file = new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' });
        if (link !== null) URL.revokeObjectURL(link);
        link = URL.createObjectURL(file);
        const anchor = element('a', 'button primary', t.downloadReport('activity.csv'));
        anchor.href = link;
        anchor.download = 'activity.csv';
        download.replaceChildren(anchor);
        anchor.focus();
      }),
  );

  void (async () => {
    try {
      const canteens = await activeCanteens(client);
      canteenChoice.append(...canteens.map((each) => option(each.canteen_id, `${each.name} (${each.canteen_id})`)));
      await load(false);
    } catch (error) {
      notices.fail(error);
    }
  })();
  return section;
}

function option(value: string, text: string): HTMLOptionElement {
  const node = element('option', '', text);
  node.value = value;
  return node;
}

function row(entry: AuditEntry, t: ConsoleTexts, when: (instant: string) => string): HTMLTableRowElement {
  const node = element('tr');
  node.dataset.action = entry.action;
  const cells = [
    when(entry.at),
    entry.actor,
    t.auditActions[entry.action],
    entry.canteen_id ?? '',
    `${entry.target}${summaryWords(entry)}`,
  ];
  for (const text of cells) node.append(element('td', '', text));
  return node;
}

/** The summary in a few words: a status change as `old → new`, lists by their ids, the rest as `name: value`. */
function summaryWords(entry: AuditEntry): string {
  const { summary } = entry;
  if (typeof summary.old_status === 'string' && typeof summary.new_status === 'string') {
    return `: ${summary.old_status} → ${summary.new_status}`;
  }
  const parts = Object.entries(summary)
    .filter(
      ([name, value]) => !['meal_id', 'feed', 'date'].includes(name) && !(Array.isArray(value) && value.length === 0),
    )
    .map(([name, value]) => `${name} ${Array.isArray(value) ? value.join(', ') : String(value)}`);
  return parts.length === 0 ? '' : ` (${parts.join('; ')})`;
}

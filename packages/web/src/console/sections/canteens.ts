// Canteens: every one, archived ones too (with a restore); create, edit, and archive after a confirmation.
import { element } from '../../shared/dom.js';
import { accessAllowsAt } from '../../shared/sign-in-settings.js';
import { restoreRequestOf, type AdminCanteen } from '../canteen-form.js';
import { button, confirmInPlace, facts, sectionShell, whileBusy, type SectionContext } from '../ui.js';
import { canteenEditor } from './canteen-editor.js';

export function canteensSection(context: SectionContext): HTMLElement {
  const { t, client, when, access } = context;
  const { section, notices } = sectionShell('canteens', t.canteens);
  const create = button(t.newCanteen, 'primary');
  create.id = 'new-canteen';
  const editorHost = element('div', 'editor-host');
  const list = element('ul', 'cards');
  list.id = 'canteen-list';
  // Creating a canteen needs meals:write for every canteen; archiving and restoring one meals:write at it.
  section.append(...(access.global.includes('meals:write') ? [create] : []), editorHost, list);
  const mayArchive = (canteenId: string) => accessAllowsAt(access, 'meals:write', canteenId);

  async function load() {
    try {
      const { canteens } = await client.listAdminCanteens();
      list.replaceChildren(...canteens.map(card));
      if (canteens.length === 0) list.append(element('li', 'empty', t.noCanteens));
    } catch (error) {
      notices.fail(error);
    }
  }

  function openEditor(existing?: AdminCanteen) {
    editorHost.replaceChildren(
      canteenEditor(context, existing, {
        saved(canteen) {
          editorHost.replaceChildren();
          notices.done(existing === undefined ? t.created(canteen.name) : t.saved(canteen.name));
          void load();
          create.focus();
        },
        cancelled() {
          editorHost.replaceChildren();
          create.focus();
        },
      }),
    );
  }

  function card(canteen: AdminCanteen): HTMLLIElement {
    const item = element('li', 'card');
    item.dataset.canteenId = canteen.canteen_id;
    if (canteen.archived_at !== null) item.classList.add('archived');
    item.append(element('h3', '', canteen.name));
    item.append(
      facts([
        [t.canteenId, canteen.canteen_id],
        [t.timezone, canteen.timezone],
        [t.city, canteen.city ?? '–'],
        [t.openmensaId, String(canteen.openmensa_id)],
        [t.feeds, canteen.feeds.length === 0 ? t.noFeeds : canteen.feeds.map((feed) => feed.name).join(', ')],
        ...(canteen.archived_at === null ? [] : [[t.archivedAt, when(canteen.archived_at)] as const]),
      ]),
    );
    const actions = element('div', 'actions');
    if (canteen.archived_at !== null) {
      if (!mayArchive(canteen.canteen_id)) {
        item.append(actions);
        return item;
      }
      const restore = button(t.restore, 'primary');
      restore.setAttribute('aria-label', t.restoreNamed(canteen.name));
      restore.addEventListener(
        'click',
        () =>
          void whileBusy(restore, notices, async () => {
            await client.saveCanteen(canteen.canteen_id, restoreRequestOf(canteen));
            await load();
            notices.done(t.restored(canteen.name));
          }),
      );
      actions.append(restore);
    } else {
      const edit = button(t.edit);
      edit.setAttribute('aria-label', t.editCanteen(canteen.name));
      edit.addEventListener('click', () => openEditor(canteen));
      const archive = button(t.archive, 'danger');
      archive.setAttribute('aria-label', t.archiveNamed(canteen.name));
      archive.addEventListener('click', () =>
        confirmInPlace(actions, t.confirmArchive(canteen.name), t.archive, t, notices, async () => {
          await client.archiveCanteen(canteen.canteen_id);
          await load();
          notices.done(t.archived(canteen.name));
        }),
      );
      actions.append(edit, ...(mayArchive(canteen.canteen_id) ? [archive] : []));
    }
    item.append(actions);
    return item;
  }

  create.addEventListener('click', () => openEditor());
  void load();
  return section;
}

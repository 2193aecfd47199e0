// The form that creates or edits a canteen: its fields, its feeds (added and removed in place), and the problems
// canteen-form.ts finds shown beside their fields before the API is asked.
import type { Canteen } from '@canteen-meals/client';
import { element } from '../../shared/dom.js';
import {
  canteenRequestOf,
  emptyCanteenFields,
  fieldsOf,
  type AdminCanteen,
  type CanteenFields,
  type FeedFields,
} from '../canteen-form.js';
import { button, field, noticeLines, textInput, whileBusy, type Field, type SectionContext } from '../ui.js';

export interface CanteenEditorEvents {
  saved(canteen: Canteen): void;
  cancelled(): void;
}

interface FeedRow {
  readonly node: HTMLElement;
  readonly name: Field<HTMLInputElement>;
  readonly url: Field<HTMLInputElement>;
  readonly schedule: Field<HTMLInputElement>;
}

let editors = 0;

export function canteenEditor(
  context: SectionContext,
  existing: AdminCanteen | undefined,
  events: CanteenEditorEvents,
): HTMLFormElement {
  const { t, client } = context;
  // Ids unique on the page, so that each label names its own control.
  const prefix = `canteen-form-${(editors += 1)}`;
  const start: CanteenFields = existing === undefined ? emptyCanteenFields : fieldsOf(existing);
  const form = element('form', 'editor');
  form.noValidate = true;
  const heading = element('h3', '', existing === undefined ? t.newCanteen : t.editCanteen(existing.name));
  heading.tabIndex = -1;

  const id = field(`${prefix}-id`, t.canteenId, textInput('text', start.id), t.canteenIdHint);
  if (existing !== undefined) id.control.readOnly = true;
  const name = field(`${prefix}-name`, t.name, textInput('text', start.name));
  const timezone = field(`${prefix}-timezone`, t.timezone, textInput('text', start.timezone), t.timezoneHint);
  const city = field(`${prefix}-city`, t.city, textInput('text', start.city));
  const address = field(`${prefix}-address`, t.address, textInput('text', start.address));
  const latitude = field(`${prefix}-latitude`, t.latitude, textInput('text', start.latitude));
  const longitude = field(`${prefix}-longitude`, t.longitude, textInput('text', start.longitude));
  for (const coordinate of [latitude, longitude]) coordinate.control.inputMode = 'decimal';
  const openmensaId = field(
    `${prefix}-openmensa`,
    t.openmensaId,
    textInput('text', start.openmensaId),
    t.openmensaIdHint,
  );
  openmensaId.control.inputMode = 'numeric';
  const fields: Record<string, Field<HTMLInputElement>> = {
    id,
    name,
    timezone,
    city,
    address,
    latitude,
    longitude,
    openmensaId,
  };

  const feedsSet = element('fieldset', 'feeds');
  feedsSet.append(element('legend', '', t.feeds));
  const feedList = element('div', 'feed-rows');
  const feedRows: FeedRow[] = [];
  let feedCount = 0;
  const addFeed = button(t.addFeed);
  feedsSet.append(feedList, addFeed);

  function feedRow(feed: FeedFields): FeedRow {
    const index = (feedCount += 1);
    const node = element('div', 'feed-row');
    const row: FeedRow = {
      node,
      name: field(`${prefix}-feed-${index}-name`, t.feedName, textInput('text', feed.name)),
      url: field(`${prefix}-feed-${index}-url`, t.feedUrl, textInput('url', feed.url)),
      schedule: field(
        `${prefix}-feed-${index}-schedule`,
        t.feedSchedule,
        textInput('text', feed.schedule),
        t.feedScheduleHint,
      ),
    };
    const remove = button(t.removeFeed(index));
    remove.addEventListener('click', () => {
      feedRows.splice(feedRows.indexOf(row), 1);
      node.remove();
      addFeed.focus();
    });
    node.append(row.name.wrapper, row.url.wrapper, row.schedule.wrapper, remove);
    feedRows.push(row);
    feedList.append(node);
    return row;
  }
  for (const feed of start.feeds) feedRow(feed);
  addFeed.addEventListener('click', () =>
    feedRow({ name: feedRows.length === 0 ? 'full' : '', url: '', schedule: '0 6 * * *' }).url.control.focus(),
  );

  const { node: noticeNode, notices } = noticeLines();
  const save = element('button', 'primary', existing === undefined ? t.create : t.save);
  save.type = 'submit';
  const cancel = button(t.cancel);
  cancel.addEventListener('click', () => events.cancelled());
  const actions = element('div', 'actions');
  actions.append(save, cancel);

  const grid = element('div', 'field-grid');
  grid.append(
    id.wrapper,
    name.wrapper,
    timezone.wrapper,
    city.wrapper,
    address.wrapper,
    latitude.wrapper,
    longitude.wrapper,
    openmensaId.wrapper,
  );
  form.append(heading, grid, feedsSet, actions, noticeNode);

  const valueOf = (each: Field) => each.control.value;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const checked = canteenRequestOf(
      {
        id: valueOf(id),
        name: valueOf(name),
        timezone: valueOf(timezone),
        city: valueOf(city),
        address: valueOf(address),
        latitude: valueOf(latitude),
        longitude: valueOf(longitude),
        openmensaId: valueOf(openmensaId),
        feeds: feedRows.map((row) => ({
          name: valueOf(row.name),
          url: valueOf(row.url),
          schedule: valueOf(row.schedule),
        })),
      },
      existing ?? {},
    );
    const all: Field[] = [...Object.values(fields), ...feedRows.flatMap((row) => [row.name, row.url, row.schedule])];
    for (const each of all) each.showProblem(null);
    if (!checked.ok) {
      const byField = (name: string) => {
        const feed = /^feeds\.(\d+)\.(name|url|schedule)$/.exec(name);
        return feed === null ? fields[name] : feedRows[Number(feed[1])]?.[feed[2] as 'name' | 'url' | 'schedule'];
      };
      for (const { field: name, problem } of checked.problems) byField(name)?.showProblem(t.problem[problem]);
      notices.fail(t.fixProblems(checked.problems.length));
      byField(checked.problems[0]!.field)?.control.focus();
      return;
    }
    const { canteenId, request } = checked.value;
    void whileBusy(save, notices, async () => events.saved(await client.saveCanteen(canteenId, request)));
  });
  queueMicrotask(() => heading.focus());
  return form;
}

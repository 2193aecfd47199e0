// Feeds: each feed of a canteen with its last success, last error in words and next run; "fetch now" with its outcome.
import type { FeedSummary } from '@canteen-meals/client';
import { element } from '../../shared/dom.js';
import {
  activeCanteens,
  button,
  canteenSelect,
  facts,
  field,
  noticeLines,
  sectionShell,
  whileBusy,
  type SectionContext,
} from '../ui.js';
import { feedStatusOf, outcomeWords } from '../wording.js';

export function feedsSection(context: SectionContext): HTMLElement {
  const { t, client, when } = context;
  const { section, notices } = sectionShell('feeds', t.feedsHeading);
  const list = element('ul', 'cards');
  list.id = 'feed-list';
  section.append(list);

  /** A feed's card; after "fetch now", `announce` says the outcome in its notice line. */
  function card(canteenId: string, summary: FeedSummary, announce?: 'done' | 'failed'): HTMLLIElement {
    const item = element('li', 'card');
    item.dataset.feed = summary.name;
    const status = feedStatusOf(summary, t, when);
    item.append(element('h3', '', summary.name), element('p', 'url', summary.url));
    item.append(
      facts([
        [t.schedule, summary.schedule],
        [t.lastSuccess, status.lastSuccess],
        [t.lastError, status.lastError],
        [t.nextRun, status.nextRun],
        [t.lastOutcome, status.outcome],
      ]),
    );
    const { node, notices: cardNotices } = noticeLines();
    const fetchNow = button(t.fetchNow, 'primary');
    fetchNow.setAttribute('aria-label', t.fetchNamed(summary.name));
    fetchNow.addEventListener(
      'click',
      () =>
        void whileBusy(fetchNow, cardNotices, async () => {
          cardNotices.done(t.fetching);
          const after = await client.fetchFeed(canteenId, summary.name);
          // The card anew with what the fetch changed, its outcome in words, the focus back on its button.
          const replaced = card(canteenId, after, after.outcome === 'failed' ? 'failed' : 'done');
          item.replaceWith(replaced);
          replaced.querySelector('button')?.focus();
        }),
    );
    if (announce !== undefined) {
      const outcome = t.fetchOutcome(outcomeWords(summary, t));
      // Once the card is on the page: a live region announces changes, not the text it was inserted with.
      requestAnimationFrame(() => (announce === 'failed' ? cardNotices.fail(outcome) : cardNotices.done(outcome)));
    }
    const actions = element('div', 'actions');
    actions.append(fetchNow);
    item.append(actions, node);
    return item;
  }

  async function show(canteenId: string) {
    list.replaceChildren();
    notices.clear();
    try {
      const { feeds } = await client.listFeeds(canteenId);
      list.replaceChildren(...feeds.map((summary) => card(canteenId, summary)));
      if (feeds.length === 0) list.append(element('li', 'empty', t.noFeedsHere));
    } catch (error) {
      notices.fail(error);
    }
  }

  void (async () => {
    try {
      const canteens = await activeCanteens(client);
      if (canteens.length === 0) return notices.done(t.noCanteens);
      const withFeeds = canteens.find((canteen) => canteen.feeds.length > 0) ?? canteens[0]!;
      const picker = field('feeds-canteen', t.canteen, canteenSelect(canteens, withFeeds.canteen_id));
      picker.control.addEventListener('change', () => void show(picker.control.value));
      list.before(picker.wrapper);
      await show(picker.control.value);
    } catch (error) {
      notices.fail(error);
    }
  })();
  return section;
}

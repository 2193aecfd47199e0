// Webhooks: create one (its generated secret shown once, with a copy button), see each one's state and delivery log,
// disable one (the API's only way is to remove the endpoint: asked first).
import type { Webhook } from '@canteen-meals/client';
import { element } from '../../shared/dom.js';
import { webhookEvents, webhookRequestOf, type WebhookEventType } from '../console-requests.js';
import {
  button,
  confirmInPlace,
  facts,
  field,
  noticeLines,
  sectionShell,
  textInput,
  whileBusy,
  type SectionContext,
} from '../ui.js';
import { deliveryWords } from '../wording.js';

export function webhooksSection(context: SectionContext): HTMLElement {
  const { t, client, when } = context;
  const { section, notices } = sectionShell('webhooks', t.webhooks);

  const form = element('form', 'editor');
  form.noValidate = true;
  const id = field('webhook-id', t.webhookId, textInput('text'), t.webhookIdHint);
  const url = field('webhook-url', t.webhookUrl, textInput('url'));
  const events = element('fieldset', 'choices');
  events.append(element('legend', '', t.webhookEvents));
  for (const event of webhookEvents) {
    const box = element('input');
    box.type = 'checkbox';
    box.name = 'webhook-event';
    box.value = event;
    box.id = `webhook-event-${event}`;
    box.checked = event === 'menu.published';
    const label = element('label', 'choice');
    label.htmlFor = box.id;
    label.append(box, document.createTextNode(` ${event}: ${t.eventMeaning[event]}`));
    events.append(label);
  }
  const create = element('button', 'primary', t.createWebhook);
  create.type = 'submit';
  form.append(element('h3', '', t.newWebhook), id.wrapper, url.wrapper, events, create);
  const secretHost = element('div', 'secret-host');
  const list = element('ul', 'cards');
  list.id = 'webhook-list';
  section.append(form, secretHost, element('h3', '', t.endpoints), list);

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const picked = [...events.querySelectorAll<HTMLInputElement>('input:checked')].map(
      (box) => box.value as WebhookEventType,
    );
    const checked = webhookRequestOf({ id: id.control.value, url: url.control.value, events: picked });
    id.showProblem(!checked.ok && checked.problem === 'webhookId' ? t.requestProblem.webhookId : null);
    url.showProblem(!checked.ok && checked.problem === 'webhookUrl' ? t.requestProblem.webhookUrl : null);
    if (!checked.ok) return notices.fail(t.requestProblem[checked.problem]);
    void whileBusy(create, notices, async () => {
      const saved = await client.saveWebhook(checked.value.webhookId, checked.value.request);
      notices.done(t.webhookSaved(saved.webhook_id));
      if (saved.secret !== undefined) showSecret(saved.secret);
      form.reset();
      await load();
    });
  });

  /** The secret, this once: the API never shows it again. */
  function showSecret(secret: string) {
    const panel = element('div', 'secret');
    panel.id = 'webhook-secret';
    panel.setAttribute('role', 'group');
    panel.setAttribute('aria-labelledby', 'webhook-secret-heading');
    const heading = element('h3', '', t.secretHeading);
    heading.id = 'webhook-secret-heading';
    heading.tabIndex = -1;
    const value = element('code', 'secret-value', secret);
    const { node, notices: copyNotices } = noticeLines();
    const copy = button(t.copySecret, 'primary');
    copy.addEventListener('click', () =>
      navigator.clipboard.writeText(secret).then(
        () => copyNotices.done(t.copied),
        () => copyNotices.fail(t.copyFailed),
      ),
    );
    const stored = button(t.secretStored);
    stored.addEventListener('click', () => {
      secretHost.replaceChildren();
      create.focus();
    });
    const actions = element('div', 'actions');
    actions.append(copy, stored);
    panel.append(heading, element('p', 'hint', t.secretOnce), value, actions, node);
    secretHost.replaceChildren(panel);
    heading.focus();
  }

  function card(webhook: Webhook): HTMLLIElement {
    const item = element('li', 'card');
    item.dataset.webhookId = webhook.webhook_id;
    const state = !webhook.enabled
      ? t.webhookDisabled(webhook.disabled_at === null ? '–' : when(webhook.disabled_at))
      : webhook.failing_since !== null
        ? t.webhookFailing(when(webhook.failing_since))
        : t.webhookEnabled;
    item.append(element('h3', '', webhook.webhook_id), element('p', 'url', webhook.url));
    item.append(
      facts([
        [t.webhookEvents, webhook.events.join(', ')],
        [t.state, state],
      ]),
    );
    const { node, notices: cardNotices } = noticeLines();
    const log = element('ol', 'deliveries');
    const showLog = button(t.deliveryLog);
    showLog.setAttribute('aria-label', t.deliveryLogOf(webhook.webhook_id));
    showLog.setAttribute('aria-expanded', 'false');
    let cursor: string | null = null;
    const more = button(t.moreDeliveries);
    more.hidden = true;
    async function page(first: boolean) {
      const { deliveries, next_cursor: next } = await client.listDeliveries(
        webhook.webhook_id,
        first || cursor === null ? { limit: 20 } : { limit: 20, cursor },
      );
      if (first) log.replaceChildren();
      log.append(
        ...deliveries.map((delivery) => element('li', `delivery ${delivery.state}`, deliveryWords(delivery, t, when))),
      );
      if (first && deliveries.length === 0) log.append(element('li', 'empty', t.noDeliveries));
      cursor = next;
      more.hidden = next === null;
    }
    showLog.addEventListener('click', () => {
      if (showLog.getAttribute('aria-expanded') === 'true') {
        showLog.setAttribute('aria-expanded', 'false');
        log.replaceChildren();
        more.hidden = true;
        return;
      }
      void whileBusy(showLog, cardNotices, async () => {
        await page(true);
        showLog.setAttribute('aria-expanded', 'true');
      });
    });
    more.addEventListener('click', () => void whileBusy(more, cardNotices, () => page(false)));
    const disable = button(t.disableWebhook, 'danger');
    disable.setAttribute('aria-label', t.disableNamed(webhook.webhook_id));
    const actions = element('div', 'actions');
    disable.addEventListener('click', () =>
      confirmInPlace(actions, t.confirmDisable(webhook.webhook_id), t.disableWebhook, t, cardNotices, async () => {
        await client.deleteWebhook(webhook.webhook_id);
        await load();
        notices.done(t.webhookRemoved(webhook.webhook_id));
      }),
    );
    actions.append(showLog, disable);
    item.append(actions, node, log, more);
    return item;
  }

  async function load() {
    try {
      const { webhooks } = await client.listWebhooks();
      list.replaceChildren(...webhooks.map(card));
      if (webhooks.length === 0) list.append(element('li', 'empty', t.noWebhooks));
    } catch (error) {
      notices.fail(error);
    }
  }
  void load();
  return section;
}

import { createECDH } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import { adminScope, signHmacToken } from '@canteen-meals/adapters-http';
import { FixedClock } from '@canteen-meals/adapters-memory';
import { startTestPushService, type TestPushService, type TestPushSubscription } from '@canteen-meals/test-push';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../src/composition-root.js';
import { loadConfig } from '../src/config.js';
import { launchBrowser } from './support/kitchen-browser.js';

// "Notify me" in the students' app, in the packaged Chromium: the switch subscribes the browser and hands
// the subscription to the server, the server's test notification reaches the push service (this test's own, which
// checks VAPID and decrypts the body), a push message reaches the app's service worker (through the DevTools
// protocol), and turning the switch off removes the subscription. Only `pushManager.subscribe` is stubbed (with
// `getSubscription` and the subscription's `unsubscribe`): chrome-headless-shell has no push messaging service, so
// the browser is handed a subscription the test push service made. It has no notification platform either: a
// notification cannot be shown there, so the worker's part checks what it can (see below).
const secret = 'push-app-secret-of-at-least-32-bytes!!';
const subject = 'mailto:ops@example.edu';
const clock = new FixedClock(new Date());
const vapid = vapidKeys();
let pushService: TestPushService;
let server: Awaited<ReturnType<typeof buildServer>>;
let origin: string;
let browser: Browser;

function vapidKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    privateKey: Buffer.concat([Buffer.alloc(32), ecdh.getPrivateKey()])
      .subarray(-32)
      .toString('base64url'),
  };
}

const token = (sub: string, scope?: string) =>
  signHmacToken(secret, { sub, ...(scope === undefined ? {} : { scope }) });

async function call(at: string, method: string, path: string, sub: string, body?: unknown, scope?: string) {
  const response = await fetch(`${at}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token(sub, scope)}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body:
      text === ''
        ? null
        : (JSON.parse(text) as { status: string; data?: any; error?: { code: string; message: string } }),
  };
}

async function startServer(push: boolean) {
  const started = await buildServer(
    loadConfig({
      JWT_SECRET: secret,
      DATABASE_URL: 'memory:',
      LOG_LEVEL: 'silent',
      ...(push
        ? { WEB_PUSH_PUBLIC_KEY: vapid.publicKey, WEB_PUSH_PRIVATE_KEY: vapid.privateKey, WEB_PUSH_SUBJECT: subject }
        : {}),
      // The push service is on this machine; the worker runs only when a test asks.
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: '1',
      PUSH_POLL_MS: '3600000',
      FEED_CHECK_INTERVAL_S: '0',
    }),
    { clock },
  );
  await started.app.listen({ host: '127.0.0.1', port: 0 });
  return { server: started, origin: `http://127.0.0.1:${(started.app.server.address() as AddressInfo).port}` };
}

/** A canteen and, tomorrow, a dish Sam marked: the favourites view has something to show. */
async function seed(at: string) {
  const admin = (path: string, body: unknown) => call(at, 'PUT', path, 'admin', body, adminScope);
  expect((await admin('/admin/canteens/nord', { name: 'Mensa Nord', timezone: 'Europe/Berlin' })).status).toBe(201);
  const tomorrow = new Date(clock.now().getTime() + 24 * 60 * 60 * 1000).toISOString();
  expect(
    (
      await admin('/admin/meals', {
        meals: [{ meal_id: 1, name: 'Currywurst', served_at: tomorrow, rateable: true, canteen_id: 'nord' }],
      })
    ).status,
  ).toBeLessThan(300);
  expect((await call(at, 'POST', '/mark-meal', 'sam', { meal_id: 1, marked: true })).status).toBeLessThan(300);
}

beforeAll(async () => {
  pushService = await startTestPushService({ subject, vapidPublicKey: vapid.publicKey });
  ({ server, origin } = await startServer(true));
  await seed(origin);
  // Several contexts at once (a person each): the packaged Chromium not as one process.
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.app.close();
  await pushService?.close();
});

/** What the page's stub of the push manager was asked. */
interface SubscribeCall {
  readonly userVisibleOnly: boolean | undefined;
  readonly applicationServerKey: string | null;
}

/** The little of the page's globals the init script and the evaluations use (the tests have no DOM types). */
interface PageGlobals {
  readonly location: { readonly origin: string };
  readonly sessionStorage: {
    getItem(key: string): string | null;
    setItem(key: string, value: string): void;
    removeItem(key: string): void;
  };
  readonly PushManager: { readonly prototype: { subscribe: unknown; getSubscription: unknown } };
  readonly navigator: {
    readonly serviceWorker: {
      readonly controller: unknown;
      readonly ready: Promise<{
        readonly pushManager: { getSubscription(): Promise<{ readonly endpoint: string } | null> };
        getNotifications(): Promise<
          readonly {
            readonly title: string;
            readonly body: string;
            readonly tag: string;
            readonly data: unknown;
            readonly icon: string;
          }[]
        >;
      }>;
    };
  };
  readonly Notification: { readonly permission: string };
  __subscribeCalls?: SubscribeCall[];
}

/**
 * A student's phone, signed in as Sam with a pasted token, notifications allowed for the app's origin, and a push
 * manager that hands out `subscription` (made by the test push service) instead of asking a real push service: its
 * `subscribe`, `getSubscription` and the subscription's `unsubscribe`, kept in this tab's session storage so that a
 * reload still finds it. Every console error and page error of the app collected.
 */
async function phone(at: string, subscription: TestPushSubscription | null, options: { locale?: string } = {}) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    locale: options.locale ?? 'en-GB',
  });
  context.setDefaultTimeout(15_000);
  await context.grantPermissions(['notifications'], { origin: at });
  await context.addInitScript(
    ({ at, signedIn, subscription }) => {
      const page = globalThis as unknown as PageGlobals;
      if (page.location.origin !== at) return;
      page.sessionStorage.setItem('canteen-meals.token', signedIn);
      if (subscription === null) return;
      const subscribedKey = 'test.push-subscribed';
      const calls: SubscribeCall[] = [];
      page.__subscribeCalls = calls;
      const bytesOf = (base64url: string) => {
        const binary = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
        return Uint8Array.from(binary, (character) => character.charCodeAt(0)).buffer;
      };
      const made = () => ({
        endpoint: subscription.endpoint,
        expirationTime: null,
        options: { userVisibleOnly: true, applicationServerKey: null },
        getKey: (name: 'p256dh' | 'auth') => bytesOf(subscription.keys[name]),
        toJSON: () => ({ endpoint: subscription.endpoint, expirationTime: null, keys: { ...subscription.keys } }),
        unsubscribe: async () => {
          page.sessionStorage.removeItem(subscribedKey);
          return true;
        },
      });
      page.PushManager.prototype.subscribe = async function subscribe(wanted?: {
        userVisibleOnly?: boolean;
        applicationServerKey?: unknown;
      }) {
        const key = wanted?.applicationServerKey;
        calls.push({
          userVisibleOnly: wanted?.userVisibleOnly,
          applicationServerKey:
            typeof key === 'string'
              ? key
              : key instanceof ArrayBuffer || ArrayBuffer.isView(key)
                ? btoa(String.fromCharCode(...new Uint8Array(key instanceof ArrayBuffer ? key : key.buffer)))
                    .replace(/\+/g, '-')
                    .replace(/\//g, '_')
                    .replace(/=+$/, '')
                : null,
        });
        page.sessionStorage.setItem(subscribedKey, '1');
        return made();
      };
      page.PushManager.prototype.getSubscription = async function getSubscription() {
        return page.sessionStorage.getItem(subscribedKey) === null ? null : made();
      };
    },
    { at, signedIn: token('sam'), subscription },
  );
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && page.url().startsWith(at)) problems.push(`console.error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return { context, page, problems };
}

/** Opens the favourites view, waits for the service worker, and reloads once so that it controls the page. */
async function openFavourites(page: Page, at: string, query = '') {
  await page.goto(`${at}/?view=favourites${query}`);
  await page.evaluate(async () => {
    await (globalThis as unknown as PageGlobals).navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect
    .poll(() => page.evaluate(() => (globalThis as unknown as PageGlobals).navigator.serviceWorker.controller !== null))
    .toBe(true);
}

/** axe-core's violations of WCAG 2.1 A and AA on the page as it is now. */
async function wcagViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
  );
}

async function close(context: BrowserContext, problems: readonly string[]) {
  await context.close();
  expect(problems).toEqual([]);
}

const subscriptionsOf = async (sub: string) =>
  (await call(origin, 'GET', '/me/push-subscriptions', sub)).body?.data.subscriptions as { endpoint_origin: string }[];

describe('"Notify me" in the students\' app', () => {
  it('subscribes on a tap, sends a test notification through the push service, hands a pushed message to the service worker, passes axe, and unsubscribes', async () => {
    const subscription = pushService.newSubscription();
    const { context, page, problems } = await phone(origin, subscription);
    await openFavourites(page, origin);
    await page.getByRole('link', { name: /Currywurst/ }).waitFor();
    const notify = page.getByRole('switch', { name: 'Notify me' });
    await notify.waitFor();
    expect(await notify.getAttribute('aria-checked')).toBe('false');
    expect(await page.getByRole('button', { name: 'Send a test notification' }).count()).toBe(0);
    expect(await subscriptionsOf('sam')).toEqual([]);

    // On: the browser subscribes with the server's key, the server keeps the subscription and Sam's settings.
    await notify.click();
    await expect.poll(() => notify.getAttribute('aria-checked')).toBe('true');
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).__subscribeCalls)).toEqual([
      { userVisibleOnly: true, applicationServerKey: vapid.publicKey },
    ]);
    expect(await subscriptionsOf('sam')).toEqual([
      { id: expect.any(String), endpoint_origin: pushService.origin, created_at: clock.now().toISOString() },
    ]);
    expect((await call(origin, 'GET', '/me/notifications', 'sam')).body?.data).toEqual({
      favourites_today: true,
      sold_out: false,
      language: 'en',
    });
    await page.getByRole('checkbox', { name: 'Also when a favourite of today sells out' }).waitFor();
    expect(await wcagViolations(page)).toEqual([]);

    // The test notification: encrypted for this subscription, VAPID signed, decrypted at the push service.
    pushService.clearRecords();
    await page.getByRole('button', { name: 'Send a test notification' }).click();
    await page.getByRole('status').filter({ hasText: 'Sent to 1 of 1 device.' }).waitFor();
    await expect
      .poll(() => pushService.received.map((each) => each.payload))
      .toEqual([
        {
          title: 'Notifications work',
          body: 'You will hear from us when a favourite of yours is on the menu.',
          url: '/?view=favourites&lang=en',
          tag: 'test',
        },
      ]);
    expect(pushService.received[0]).toMatchObject({
      endpoint: subscription.endpoint,
      vapidSub: subject,
      vapidAud: pushService.origin,
      vapidPublicKey: vapid.publicKey,
    });
    expect(pushService.rejected).toEqual([]);

    // A push message handed to the app's service worker, as the browser hands it one from its push service.
    const cdp = await context.newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
    const workerErrors: { registrationId: string; sourceURL: string; errorMessage: string }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => registrations.push(...event.registrations));
    cdp.on('ServiceWorker.workerErrorReported', (event) => workerErrors.push(event.errorMessage));
    await cdp.send('ServiceWorker.enable');
    const appRegistration = () =>
      registrations.find((registration) => registration.scopeURL === `${origin}/` && !registration.isDeleted);
    await expect.poll(() => appRegistration() !== undefined).toBe(true);
    const registrationId = appRegistration()!.registrationId;
    const message = {
      title: 'Your favourites today',
      body: 'Today at Mensa Nord: Currywurst',
      url: '/?canteen=default&date=2026-03-10&lang=en',
      tag: 'favourites-2026-03-10',
    };
    await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data: JSON.stringify(message) });
    const shown = () =>
      page.evaluate(async () => {
        const registration = await (globalThis as unknown as PageGlobals).navigator.serviceWorker.ready;
        return (await registration.getNotifications()).map(({ title, body, tag, data, icon }) => ({
          title,
          body,
          tag,
          data,
          icon,
        }));
      });
    if ((await page.evaluate(() => (globalThis as unknown as PageGlobals).Notification.permission)) === 'granted') {
      // A browser that shows notifications: the worker shows the message, its tap target on the app's origin.
      await expect.poll(shown).toEqual([
        {
          title: message.title,
          body: message.body,
          tag: message.tag,
          data: { url: `${origin}${message.url}` },
          icon: expect.stringMatching(new RegExp(`^${origin}/.*\\.png$`)),
        },
      ]);
      expect(workerErrors).toEqual([]);
    } else {
      // The packaged Chromium is chrome-headless-shell, whose browser context has no notification platform (its
      // GetPlatformNotificationService() is null): Notification.permission reads "denied" whatever was granted, and
      // every showNotification() is refused. What shows here is that the worker got the message, read it, and asked
      // to show it: the one error it reports is that refusal, from its push handler's showNotification().
      await expect.poll(() => workerErrors.length).toBeGreaterThan(0);
      expect(workerErrors).toEqual([
        {
          registrationId,
          versionId: expect.any(String),
          sourceURL: `${origin}/sw.js`,
          lineNumber: expect.any(Number),
          columnNumber: expect.any(Number),
          errorMessage: expect.stringMatching(
            /^Uncaught \(in promise\) TypeError: Failed to execute 'showNotification' on 'ServiceWorkerRegistration': No notification permission/,
          ),
        },
      ]);
      expect(await shown()).toEqual([]);
    }
    await cdp.detach();

    // Off: the server forgets the subscription, and so does the browser.
    await notify.click();
    await expect.poll(() => notify.getAttribute('aria-checked')).toBe('false');
    expect(await subscriptionsOf('sam')).toEqual([]);
    expect(
      await page.evaluate(
        async () =>
          (await (
            await (globalThis as unknown as PageGlobals).navigator.serviceWorker.ready
          ).pushManager.getSubscription()) === null,
      ),
    ).toBe(true);
    expect(await page.getByRole('button', { name: 'Send a test notification' }).count()).toBe(0);
    await close(context, problems);
  });

  it('is named "Benachrichtigen" in German (?lang=de), saves German as the notifications\' language, and passes axe', async () => {
    const subscription = pushService.newSubscription();
    const { context, page, problems } = await phone(origin, subscription, { locale: 'de-DE' });
    await openFavourites(page, origin, '&lang=de');
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('de');
    const notify = page.getByRole('switch', { name: 'Benachrichtigen' });
    await notify.waitFor();
    expect(await notify.getAttribute('aria-checked')).toBe('false');
    await notify.click();
    await expect.poll(() => notify.getAttribute('aria-checked')).toBe('true');
    expect((await call(origin, 'GET', '/me/notifications', 'sam')).body?.data).toEqual({
      favourites_today: true,
      sold_out: false,
      language: 'de',
    });
    expect(await subscriptionsOf('sam')).toEqual([expect.objectContaining({ endpoint_origin: pushService.origin })]);
    await page.getByRole('button', { name: 'Testbenachrichtigung senden' }).waitFor();
    await page.getByRole('checkbox', { name: 'Auch wenn ein Favorit von heute ausverkauft ist' }).waitFor();
    expect(await wcagViolations(page)).toEqual([]);
    await page.getByRole('switch', { name: 'Benachrichtigen' }).click();
    await expect
      .poll(() => page.getByRole('switch', { name: 'Benachrichtigen' }).getAttribute('aria-checked'))
      .toBe('false');
    expect(await subscriptionsOf('sam')).toEqual([]);
    await close(context, problems);
  });

  it('is not shown when the server sends no push', async () => {
    const off = await startServer(false);
    try {
      await seed(off.origin);
      expect((await (await fetch(`${off.origin}/api/v1/push`)).json()) as unknown).toEqual({
        status: 'success',
        data: { enabled: false },
      });
      const { context, page, problems } = await phone(off.origin, null);
      const pushStatus = page.waitForResponse((response) => response.url() === `${off.origin}/api/v1/push`);
      await page.goto(`${off.origin}/?view=favourites`);
      expect(await (await pushStatus).json()).toEqual({ status: 'success', data: { enabled: false } });
      await page.getByRole('link', { name: /Currywurst/ }).waitFor();
      await page.getByRole('heading', { name: 'Hidden dishes' }).waitFor();
      // The switch would show right after that answer (with push on it does, within this time): nothing came.
      await page.waitForTimeout(500);
      expect(await page.getByRole('switch').count()).toBe(0);
      expect(await page.getByRole('heading', { name: 'Notifications' }).count()).toBe(0);
      await close(context, problems);
    } finally {
      await off.server.app.close();
    }
  });
});

// "Notify me": Web Push for the person's favourites. The browser's subscription (its push service, keys the
// server encrypts for) goes to the server; the permission is asked on the tap that turns it on, never before.
import type { MealsClient, NotificationSettings } from '@canteen-meals/client';
import { personalClient } from './clients.js';
import { publicApi } from './menu.js';
import { language, session } from './state.js';

/** Whether this browser can receive Web Push for an installed or open app. */
export const pushSupported = () => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/** The server's VAPID key, or null when it sends no push. */
export async function serverPushKey(): Promise<string | null> {
  const status = await publicApi.getPushStatus();
  return status.enabled && status.public_key !== undefined ? status.public_key : null;
}

function api(): MealsClient {
  const signedIn = session.value;
  if (signedIn === null) throw new Error('not signed in');
  return personalClient(() => signedIn.getToken());
}

const registration = () => navigator.serviceWorker.ready;

/** The browser's current subscription of this app, if any. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  return (await registration()).pushManager.getSubscription();
}

/**
 * Turns notifications on: the permission (asked now, on this tap), the browser's subscription to the server's key,
 * saved for the person with their language. Answers false when the person refused the permission.
 */
export async function turnOn(publicKey: string, settings: Pick<NotificationSettings, 'sold_out'>): Promise<boolean> {
  if ((await Notification.requestPermission()) !== 'granted') return false;
  const pushManager = (await registration()).pushManager;
  const subscription =
    (await pushManager.getSubscription()) ??
    (await pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey }));
  const json = subscription.toJSON();
  await api().savePushSubscription({
    endpoint: subscription.endpoint,
    expirationTime: json.expirationTime ?? null,
    keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
  });
  await api().saveNotificationSettings({
    favourites_today: true,
    sold_out: settings.sold_out,
    language: language.value,
  });
  return true;
}

/** Turns them off: the server forgets this browser, and the browser its subscription. */
export async function turnOff(): Promise<void> {
  const subscription = await currentSubscription();
  if (subscription === null) return;
  await api().removePushSubscription(subscription.endpoint);
  await subscription.unsubscribe();
}

export const notificationSettings = () => api().getNotificationSettings();
export const saveSoldOut = (soldOut: boolean) =>
  api().saveNotificationSettings({ favourites_today: true, sold_out: soldOut, language: language.value });
export const sendTest = () => api().sendTestPush();

import type { CanteenId } from '../canteen/canteen.js';
import type { MealId } from '../meal/meal.js';
import type { LocalDate } from '../menu/local-time.js';
import type { NotificationLanguage } from './notification-settings.js';

/** What the service worker shows: the notification's title and body, the app's URL a tap opens, and its tag. */
export interface PushPayload {
  readonly title: string;
  readonly body: string;
  readonly url: string;
  /** One per person and day (a resend replaces rather than stacks), or per meal for a sold-out notice. */
  readonly tag: string;
}

/** A payload's JSON is at most this long (push services take about 4 KB of ciphertext). */
export const maxPushPayloadBytes = 3 * 1024;

const appUrl = (canteenId: CanteenId, date: LocalDate, language: NotificationLanguage) =>
  `/?canteen=${encodeURIComponent(canteenId)}&date=${date}&lang=${language}`;

/** The length of a text in UTF-8 (pure: the domain uses no platform API). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (const character of text) {
    const code = character.codePointAt(0)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

const texts = {
  en: {
    digestTitle: 'Your favourites today',
    digestBody: (canteen: string, names: string) => `Today at ${canteen}: ${names}`,
    soldOutTitle: (name: string) => `Sold out: ${name}`,
    soldOutBody: (name: string, canteen: string) => `${name} is sold out at ${canteen} today.`,
    testTitle: 'Notifications work',
    testBody: 'You will hear from us when a favourite of yours is on the menu.',
  },
  de: {
    digestTitle: 'Deine Favoriten heute',
    digestBody: (canteen: string, names: string) => `Heute in ${canteen}: ${names}`,
    soldOutTitle: (name: string) => `Ausverkauft: ${name}`,
    soldOutBody: (name: string, canteen: string) => `${name} ist heute in ${canteen} ausverkauft.`,
    testTitle: 'Benachrichtigungen funktionieren',
    testBody: 'Du hörst von uns, wenn einer deiner Favoriten auf dem Speiseplan steht.',
  },
} as const;

/** The JSON of a payload, its body shortened (names left out, "…" said) until it fits `maxPushPayloadBytes`. */
export function payloadJson(payload: PushPayload): string {
  let json = JSON.stringify(payload);
  let body = payload.body;
  while (utf8Length(json) > maxPushPayloadBytes && body.length > 1) {
    body = `${body.slice(0, Math.floor(body.length * 0.9)).trimEnd()}…`;
    json = JSON.stringify({ ...payload, body });
  }
  return json;
}

/** "Today at Mensa Nord: Currywurst, Lentil soup": one notification a person and day, its dishes by serving time. */
export function digestPayload(input: {
  readonly canteenId: CanteenId;
  readonly canteenName: string;
  readonly date: LocalDate;
  readonly names: readonly string[];
  readonly language: NotificationLanguage;
}): PushPayload {
  const t = texts[input.language];
  const names = [...new Set(input.names)].join(', ');
  return {
    title: t.digestTitle,
    body: t.digestBody(input.canteenName, names),
    url: appUrl(input.canteenId, input.date, input.language),
    tag: `favourites-${input.date}`,
  };
}

export function soldOutPayload(input: {
  readonly canteenId: CanteenId;
  readonly canteenName: string;
  readonly date: LocalDate;
  readonly mealId: MealId;
  readonly name: string;
  readonly language: NotificationLanguage;
}): PushPayload {
  const t = texts[input.language];
  return {
    title: t.soldOutTitle(input.name),
    body: t.soldOutBody(input.name, input.canteenName),
    url: appUrl(input.canteenId, input.date, input.language),
    tag: `sold-out-${input.mealId}`,
  };
}

export function testPayload(language: NotificationLanguage): PushPayload {
  const t = texts[language];
  return { title: t.testTitle, body: t.testBody, url: `/?view=favourites&lang=${language}`, tag: 'test' };
}

/** RFC 8030's Topic from a tag: at most 32 characters of the URL-safe base64 alphabet. */
export function topicOf(tag: string): string {
  return tag.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 32);
}

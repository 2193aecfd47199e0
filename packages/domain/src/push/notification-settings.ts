import type { UserId } from '../shared/user-id.js';

export const notificationLanguages = ['en', 'de'] as const;
export type NotificationLanguage = (typeof notificationLanguages)[number];

/** What a person is notified of, and in which language. */
export interface NotificationSettings {
  /** One notification on each day a canteen serves a dish they marked (default on). */
  readonly favouritesToday: boolean;
  /** A marked meal of today sold out (opt-in). */
  readonly soldOut: boolean;
  readonly language: NotificationLanguage;
}

export const defaultNotificationSettings: NotificationSettings = {
  favouritesToday: true,
  soldOut: false,
  language: 'en',
};

export interface NotificationSettingsRepository {
  /** The person's settings; the defaults when they set none. */
  settingsOf(userId: UserId): Promise<NotificationSettings>;
  /** The settings of many people (the defaults for those who set none), by user id. */
  settingsOfUsers(userIds: readonly UserId[]): Promise<ReadonlyMap<UserId, NotificationSettings>>;
  save(userId: UserId, settings: NotificationSettings): Promise<void>;
  /** GDPR art. 17; answers whether there were settings. */
  erase(userId: UserId): Promise<boolean>;
}

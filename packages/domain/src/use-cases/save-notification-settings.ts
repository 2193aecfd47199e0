import type { UserId } from '../shared/user-id.js';
import type { NotificationSettings, NotificationSettingsRepository } from '../push/notification-settings.js';

export class SaveNotificationSettings {
  constructor(private readonly deps: { readonly notificationSettings: NotificationSettingsRepository }) {}
  async execute({
    userId,
    settings,
  }: {
    readonly userId: UserId;
    readonly settings: NotificationSettings;
  }): Promise<NotificationSettings> {
    await this.deps.notificationSettings.save(userId, settings);
    return settings;
  }
}

import type { UserId } from '../shared/user-id.js';
import type { NotificationSettings, NotificationSettingsRepository } from '../push/notification-settings.js';

export class GetNotificationSettings {
  constructor(private readonly deps: { readonly notificationSettings: NotificationSettingsRepository }) {}
  execute({ userId }: { readonly userId: UserId }): Promise<NotificationSettings> {
    return this.deps.notificationSettings.settingsOf(userId);
  }
}

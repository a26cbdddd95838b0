import { CreateNotificationsTables1796100000000 } from './1796100000000-create-notifications-tables';

export const NOTIFICATIONS_MIGRATIONS = [CreateNotificationsTables1796100000000];

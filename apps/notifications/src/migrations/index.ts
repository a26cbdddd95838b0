import { CreateNotificationsTables1796100000000 } from './1796100000000-create-notifications-tables';
import { ContactPriority1796100000001 } from './1796100000001-contact-priority';

export const NOTIFICATIONS_MIGRATIONS = [CreateNotificationsTables1796100000000, ContactPriority1796100000001];

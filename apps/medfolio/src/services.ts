import type { EmbeddableService } from '@medfolio/runtime/service-kit';
import { AUDIT_SERVICE } from '@medfolio/audit-app';
import { DOCUMENTS_SERVICE } from '@medfolio/documents-app';
import { IDENTITY_SERVICE } from '@medfolio/identity-app';
import { NOTIFICATIONS_SERVICE } from '@medfolio/notifications-app';
import { CONNECTIONS_SERVICE } from '@medfolio/connections-app';
import { WALLET_SERVICE } from '@medfolio/wallet-app';
import { BILLING_SERVICE } from '@medfolio/billing-app';
import { SUMMARY_SERVICE } from '@medfolio/summary-app';

/**
 * Every service `npm start` runs in its one process, in start order, the gateway last. A new
 * service adds its `<NAME>_SERVICE` (its app's index.ts exports it) here; `nx g @medfolio/tooling:service` does.
 */
export const EMBEDDED_SERVICES: readonly EmbeddableService[] = [
  AUDIT_SERVICE,
  NOTIFICATIONS_SERVICE,
  IDENTITY_SERVICE,
  DOCUMENTS_SERVICE,
  SUMMARY_SERVICE,
  WALLET_SERVICE,
  BILLING_SERVICE,
  CONNECTIONS_SERVICE,
];

import { ACCOUNT_ROUTES } from './accounts.routes';
import { CONNECTION_ROUTES } from './connections.routes';
import { CONNECTION_SHL_ROUTES } from './connections-shl.routes';
import { FAMILY_ROUTES } from './family.routes';
import { FAMILY_TEEN_ROUTES } from './family-teens.routes';
import { SERVICE_ROUTES } from './services.routes';
import { PROVIDER_ROUTES } from './providers.routes';
import { RECORD_ROUTES } from './records.routes';
import type { RouteDefinition } from './route';
import { SUMMARY_ROUTES } from './summary.routes';
import { TREND_ROUTES } from './trends.routes';

export * from './route';
export type * from './shapes';
export { DOWNLOAD_LINK_TIMEOUT_MS } from './records.routes';
export { SHARE_READ_HEADERS } from './summary.routes';

/**
 * Every /api endpoint, by operation id (the web client's hook names come from it:
 * `historyList` → `useHistoryListQuery`). The order is the API reference's.
 */
export const API_ROUTES = {
  ...ACCOUNT_ROUTES,
  ...RECORD_ROUTES,
  ...SUMMARY_ROUTES,
  ...TREND_ROUTES,
  ...CONNECTION_ROUTES,
  ...CONNECTION_SHL_ROUTES,
  ...FAMILY_ROUTES,
  ...FAMILY_TEEN_ROUTES,
  ...PROVIDER_ROUTES,
  ...SERVICE_ROUTES,
} as const satisfies Record<string, RouteDefinition>;

export type ApiRouteName = keyof typeof API_ROUTES;
export { API_SCHEMAS } from './schemas';
export { buildOpenApiDocument } from './openapi';

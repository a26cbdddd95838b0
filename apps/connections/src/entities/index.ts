import { Connection } from './connection.entity';
import { PendingAuthorization } from './pending-authorization.entity';

export { Connection, PendingAuthorization };

export const CONNECTIONS_ENTITIES = [Connection, PendingAuthorization];

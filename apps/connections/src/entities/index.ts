import { Connection } from './connection.entity';
import { ConnectionResource } from './connection-resource.entity';
import { PendingAuthorization } from './pending-authorization.entity';

export { Connection, ConnectionResource, PendingAuthorization };

export const CONNECTIONS_ENTITIES = [Connection, ConnectionResource, PendingAuthorization];

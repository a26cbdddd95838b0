import { CreateConnections1795753978204 } from './1795753978204-create-connections';

export const CONNECTIONS_MIGRATIONS = [CreateConnections1795753978204];

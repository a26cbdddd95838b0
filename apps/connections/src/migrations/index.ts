import { CreateConnections1795753978204 } from './1795753978204-create-connections';
import { AddSync1795800000000 } from './1795800000000-add-sync';
import { RecordDocument1795800000001 } from './1795800000001-record-document';
import { BinaryDocuments1795800000002 } from './1795800000002-binary-documents';

export const CONNECTIONS_MIGRATIONS = [CreateConnections1795753978204, AddSync1795800000000, RecordDocument1795800000001, BinaryDocuments1795800000002];

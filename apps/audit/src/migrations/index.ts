import { CreateAuditLog1763700000000 } from './1763700000000-create-audit-log';

export const AUDIT_MIGRATIONS = [CreateAuditLog1763700000000];

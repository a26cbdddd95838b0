import { AuditConfig } from '../../audit/src/config';
import { GatewayConfig } from '../../gateway/src/config';

/** The launcher reads the gateway's and every service's settings from the same environment. */
export { AuditConfig, GatewayConfig };

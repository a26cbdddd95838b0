import { CommonConfig } from './common.config';
import { WithInternalHttp, WithJwt, WithStorage } from './concerns';

/** A service that keeps or serves files (concerns.ts, WithStorage). */
export class StorageAwareConfig extends WithStorage(CommonConfig) {}

/** A service that takes internal HTTP from the gateway and knows the access tokens' issuer (identity, documents). */
export class InternalHttpConfig extends WithInternalHttp(WithJwt(StorageAwareConfig)) {}

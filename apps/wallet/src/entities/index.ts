import { DeviceRegistration } from './device-registration.entity';
import { WalletPass } from './wallet-pass.entity';

export { DeviceRegistration, WalletPass };

/** Every entity of the service's schema (it publishes nothing: no outbox). */
export const WALLET_ENTITIES = [WalletPass, DeviceRegistration];

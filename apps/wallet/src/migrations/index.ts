import { CreateWallet1797100000000 } from './1797100000000-create-wallet';

export const WALLET_MIGRATIONS = [CreateWallet1797100000000];

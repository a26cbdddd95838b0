import { CreateWallet1797100000000 } from './1797100000000-create-wallet';
import { RetirePasses1797200000000 } from './1797200000000-retire-passes';

export const WALLET_MIGRATIONS = [CreateWallet1797100000000, RetirePasses1797200000000];

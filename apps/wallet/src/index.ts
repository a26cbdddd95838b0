/** What the one-process launcher (apps/medfolio) needs to embed the wallet service. Nothing else imports it. */
export { WalletAppModule } from './app.module';
export { WalletConfig } from './config';
export { WALLET_SERVICE } from './service';

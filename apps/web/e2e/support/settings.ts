/** Where the browser tests find Chromium and run the product (environment overrides for other machines). */
export const chromiumPath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
export const e2ePort = Number(process.env['WEB_E2E_PORT'] ?? 3917);
export const baseUrl = `http://localhost:${e2ePort}`;
/** The dev mailbox's secret: global-setup starts the product with it as DEV_MAIL_KEY (npm start prints a random one otherwise). */
export const devMailKey = process.env['WEB_E2E_DEV_MAIL_KEY'] ?? 'web-e2e-dev-mail-key';

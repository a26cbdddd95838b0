import { describeConfig, loadConfig } from '@medfolio/config';
import { NotificationsConfig } from './config';

const KEY = Buffer.alloc(32, 7).toString('base64');

describe('NotificationsConfig', () => {
  it('has working defaults for embedded mode (no SMTP, no key: the key file is generated)', () => {
    const config = loadConfig(NotificationsConfig, {});
    expect(config).toMatchObject({
      mode: 'embedded',
      mailFrom: 'Medfolio <no-reply@medfolio.local>',
      supportEmail: 'support@medfolio.local',
      publicBaseUrl: 'http://localhost:3000',
      giveUpAfterHours: 72,
    });
    expect(config.smtpUrl).toBeUndefined();
    expect(config.encryptionKey).toBeUndefined();
  });

  it('reads every variable', () => {
    const config = loadConfig(NotificationsConfig, {
      SMTP_URL: 'smtps://user:secret@smtp.example.com:465',
      MAIL_FROM: 'no-reply@example.com',
      SUPPORT_EMAIL: 'help@example.com',
      NOTIFICATIONS_ENCRYPTION_KEY: KEY,
      PUBLIC_BASE_URL: 'https://medfolio.example.com',
      MAIL_GIVE_UP_AFTER_HOURS: '24',
    });
    expect(config).toMatchObject({
      smtpUrl: 'smtps://user:secret@smtp.example.com:465',
      mailFrom: 'no-reply@example.com',
      supportEmail: 'help@example.com',
      encryptionKey: KEY,
      publicBaseUrl: 'https://medfolio.example.com',
      giveUpAfterHours: 24,
    });
  });

  it('requires the encryption key in service mode', () => {
    expect(() => loadConfig(NotificationsConfig, { MEDFOLIO_MODE: 'service' })).toThrow(
      'Invalid configuration: NOTIFICATIONS_ENCRYPTION_KEY must be 32 random bytes in base64 (required in service mode) (not set)',
    );
    expect(loadConfig(NotificationsConfig, { MEDFOLIO_MODE: 'service', NOTIFICATIONS_ENCRYPTION_KEY: KEY }).encryptionKey).toBe(KEY);
  });

  it('takes a list of keys to rotate ("new:base64,old:base64", current first), and refuses a published one in service mode', () => {
    const other = Buffer.alloc(32, 9).toString('base64');
    expect(loadConfig(NotificationsConfig, { MEDFOLIO_MODE: 'service', NOTIFICATIONS_ENCRYPTION_KEY: `new:${other}, old:${KEY}` }).encryptionKey).toBe(`new:${other}, old:${KEY}`);
    expect(() => loadConfig(NotificationsConfig, { MEDFOLIO_MODE: 'service', NOTIFICATIONS_ENCRYPTION_KEY: 'bWVkZm9saW8tZGV2LW5vdGlmaWNhdGlvbnMta2V5ISE=' })).toThrow(
      'Invalid configuration: NOTIFICATIONS_ENCRYPTION_KEY is a published default or placeholder, refused in service mode',
    );
  });

  it.each([
    ['NOTIFICATIONS_ENCRYPTION_KEY', Buffer.alloc(16).toString('base64'), 'must be 32 random bytes in base64'],
    ['SMTP_URL', 'http://smtp.example.com', 'must be an smtp:// or smtps:// URL'],
    ['MAIL_FROM', 'Medfolio', "must be an address or 'Name <address>'"],
    ['SUPPORT_EMAIL', 'support', 'must be an e-mail address'],
    ['PUBLIC_BASE_URL', 'javascript:alert(1)', 'must be an http(s) URL'],
    ['MAIL_GIVE_UP_AFTER_HOURS', 'soon', 'must be a whole number'],
  ])('names a bad %s without its value', (variable, value, reason) => {
    expect(() => loadConfig(NotificationsConfig, { [variable]: value })).toThrow(`Invalid configuration: ${variable} ${reason}`);
    try {
      loadConfig(NotificationsConfig, { [variable]: value });
    } catch (error) {
      expect((error as Error).message).not.toContain(value);
    }
  });

  it('never prints the SMTP URL or the key', () => {
    const config = loadConfig(NotificationsConfig, { SMTP_URL: 'smtp://user:secret@mail:25', NOTIFICATIONS_ENCRYPTION_KEY: KEY });
    const printed = describeConfig(NotificationsConfig, config);
    expect(printed).toMatchObject({ SMTP_URL: '***', NOTIFICATIONS_ENCRYPTION_KEY: '***', SUPPORT_EMAIL: 'support@medfolio.local' });
    expect(JSON.stringify(printed)).not.toContain('secret');
  });
});

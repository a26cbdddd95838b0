import { devMailKey, embeddedListenHost, exposedDevMailWarning } from './listen-host';

describe('where npm start listens', () => {
  it('listens on loopback unless HOST opts in to more', () => {
    expect(embeddedListenHost({})).toBe('127.0.0.1');
    expect(embeddedListenHost({ HOST: '' })).toBe('127.0.0.1');
    expect(embeddedListenHost({ HOST: '0.0.0.0' })).toBe('0.0.0.0');
    expect(embeddedListenHost({ HOST: '::1' })).toBe('::1');
  });

  it('warns at start-up when HOST reaches other machines while the dev mailbox is on', () => {
    expect(exposedDevMailWarning('0.0.0.0', true)).toContain('HOST=0.0.0.0');
    expect(exposedDevMailWarning('192.0.2.4', true)).toContain('SMTP_URL');
    expect(exposedDevMailWarning('0.0.0.0', false)).toBeNull();
    for (const host of ['127.0.0.1', '::1', 'localhost']) expect(exposedDevMailWarning(host, true)).toBeNull();
  });

  it("gives the dev mailbox a secret: DEV_MAIL_KEY when set, otherwise a new random one each start", () => {
    const a = devMailKey({});
    const b = devMailKey({ DEV_MAIL_KEY: '' });
    expect(a).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(b).not.toBe(a);
    expect(devMailKey({ DEV_MAIL_KEY: 'harness-key-0123456789' })).toBe('harness-key-0123456789');
    for (const bad of ['short', 'has spaces in it, long enough', 'quote"and<angle>brackets!!'])
      expect(() => devMailKey({ DEV_MAIL_KEY: bad })).toThrow('DEV_MAIL_KEY must be at least 16 characters');
  });
});

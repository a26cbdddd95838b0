import { embeddedListenHost, exposedDevMailWarning } from './listen-host';

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
});

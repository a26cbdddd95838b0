import { loadConfig } from './load-config';
import { BaseConfig, WithPublicUrl } from './concerns';
import { linkHost, publicBaseUrlOf, writesLinks } from './public-url';

describe('the base URL of every link the product writes', () => {
  it('is PUBLIC_BASE_URL when set, whatever the product listens on (without a trailing slash)', () => {
    expect(publicBaseUrlOf({ PUBLIC_BASE_URL: 'https://medfolio.example.com/' }, { host: '127.0.0.1', port: 3400 })).toBe('https://medfolio.example.com');
    expect(publicBaseUrlOf({ PUBLIC_BASE_URL: '  https://example.org/medfolio//  ' }, { host: '0.0.0.0', port: 8080 })).toBe('https://example.org/medfolio');
  });

  it('otherwise is where the product was started: its port, and its host as a browser names it', () => {
    expect(publicBaseUrlOf({}, { host: '127.0.0.1', port: 3400 })).toBe('http://localhost:3400');
    expect(publicBaseUrlOf({ PUBLIC_BASE_URL: '' }, { host: '0.0.0.0', port: 3000 })).toBe('http://localhost:3000');
    expect(publicBaseUrlOf({ PUBLIC_BASE_URL: '   ' }, { host: 'medfolio.lan', port: 8443 })).toBe('http://medfolio.lan:8443');
    expect(publicBaseUrlOf({}, { host: '192.168.1.20', port: 3001 })).toBe('http://192.168.1.20:3001');
    expect(publicBaseUrlOf({}, { host: 'fd00::5', port: 3001 })).toBe('http://[fd00::5]:3001');
  });

  it.each(['', '0.0.0.0', '::', '[::]', '::1', '127.0.0.1', '127.1.2.3', '::ffff:127.0.0.1', 'localhost'])('names %j as localhost', (host) => {
    expect(linkHost(host)).toBe('localhost');
  });

  it.each(['"><img src=x>', 'host name', 'a/b', 'bad_host!'])('refuses HOST %j rather than write it into links', (host) => {
    expect(() => publicBaseUrlOf({}, { host, port: 3000 })).toThrow('HOST must be a host name or an IP address');
  });

  it('tells the configs that write links from those that do not', () => {
    class Writes extends WithPublicUrl(BaseConfig) {}
    expect(writesLinks(loadConfig(Writes, {}))).toBe(true);
    expect(writesLinks(loadConfig(BaseConfig, {}))).toBe(false);
  });
});

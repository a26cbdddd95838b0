import type { EmbeddableService } from '@medfolio/runtime/service-kit';
import { checkStartOrder, tellInternalUrl } from './internal-http';
import { EMBEDDED_SERVICES } from './services';

const service = (name: EmbeddableService['name'], extra: Partial<EmbeddableService> = {}) =>
  ({ name, config: class {}, module: () => ({ module: class {} }), ...extra }) as unknown as EmbeddableService;

describe('services that call internal HTTP in one process', () => {
  it("accepts the launcher's own list (summary after documents)", () => {
    expect(() => checkStartOrder(EMBEDDED_SERVICES)).not.toThrow();
    expect(EMBEDDED_SERVICES.find((s) => s.name === 'summary')?.callsInternalHttp).toEqual(['documents']);
  });

  it('refuses a caller listed before the service it calls, or a callee without internal HTTP', () => {
    const documents = service('documents', { internalHttp: true });
    const summary = service('summary', { callsInternalHttp: ['documents'] });
    expect(() => checkStartOrder([documents, summary])).not.toThrow();
    expect(() => checkStartOrder([summary, documents])).toThrow("summary calls documents's internal HTTP: list documents (with internalHttp) before it");
    expect(() => checkStartOrder([service('documents'), summary])).toThrow(/with internalHttp/);
    expect(() => checkStartOrder([summary])).toThrow(/list documents/);
  });

  it("sets the caller's <name>InternalUrl, and names a config that has none", () => {
    const config = { documentsInternalUrl: 'http://127.0.0.1:3002' };
    tellInternalUrl(config, 'summary', 'documents', 'http://127.0.0.1:40123');
    expect(config.documentsInternalUrl).toBe('http://127.0.0.1:40123');
    expect(() => tellInternalUrl({}, 'summary', 'wallet', 'http://127.0.0.1:1')).toThrow("summary calls wallet's internal HTTP, but its config has no walletInternalUrl");
  });
});

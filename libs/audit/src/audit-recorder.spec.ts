import { DomainError, type CallerIdentity } from '@medfolio/contracts';
import type { EventBus, PublishOptions } from '@medfolio/messaging';
import { AuditRecorder } from './audit-recorder';

function busThat(publish: (subject: string, data: unknown, options?: PublishOptions) => Promise<unknown>): EventBus {
  return {
    publish: publish as EventBus['publish'],
    ensureStream: jest.fn(),
    consume: jest.fn(),
    tail: jest.fn(),
    isHealthy: jest.fn(),
    close: jest.fn(),
  };
}

const caller: CallerIdentity = { userId: 'u-1', roles: ['patient'], correlationId: 'c-1', ip: '10.0.0.1', userAgent: 'jest' };

describe('AuditRecorder', () => {
  it('publishes one record per access, with the record id as message id, and waits for the ack', async () => {
    const published: { subject: string; data: unknown; options?: PublishOptions }[] = [];
    const recorder = new AuditRecorder(
      busThat(async (subject, data, options) => {
        published.push({ subject, data, ...(options ? { options } : {}) });
        return { stream: 'AUDIT', seq: 1, duplicate: false };
      }),
      'documents',
    );
    const event = await recorder.record(caller, { action: 'document.list', entityType: 'document', patientId: 'u-1', outcome: 'success', policy: 'owner' });
    expect(published).toHaveLength(1);
    expect(published[0]!.subject).toBe('audit.event.recorded.v1');
    expect(published[0]!.options?.msgId).toBe(event.id);
    expect(published[0]!.data).toMatchObject({
      service: 'documents',
      actor: 'u-1',
      action: 'document.list',
      patientId: 'u-1',
      ip: '10.0.0.1',
      correlationId: 'c-1',
      policy: 'owner',
    });
  });

  it('fails closed with UNAVAILABLE when the stream does not acknowledge', async () => {
    const recorder = new AuditRecorder(busThat(() => Promise.reject(new Error('timeout'))), 'documents');
    const error = await recorder.record(caller, { action: 'document.list', entityType: 'document', outcome: 'success' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('UNAVAILABLE');
  });

  it('records anonymous callers as anonymous', async () => {
    let data: unknown;
    const recorder = new AuditRecorder(busThat(async (_s, d) => ((data = d), { stream: 'AUDIT', seq: 1, duplicate: false })), 'summary');
    await recorder.record({ roles: [], correlationId: 'c-2' }, { action: 'summary.read', entityType: 'summary', outcome: 'success', policy: 'share-link:abc' });
    expect(data).toMatchObject({ actor: 'anonymous', policy: 'share-link:abc' });
  });

  it("records a proxy's access as the actor's, on the record's patient, with the proxy role as policy", async () => {
    let data: unknown;
    const recorder = new AuditRecorder(busThat(async (_s, d) => ((data = d), { stream: 'AUDIT', seq: 1, duplicate: false })), 'documents');
    const proxy: CallerIdentity = { userId: 'child-1', roles: ['patient'], correlationId: 'c-3', actor: { userId: 'parent-1', role: 'manage' } };
    await recorder.record(proxy, { action: 'document.upload', entityType: 'document', patientId: 'child-1', outcome: 'success', policy: 'owner' });
    expect(data).toMatchObject({ actor: 'parent-1', patientId: 'child-1', policy: 'proxy:manage' });
  });
});

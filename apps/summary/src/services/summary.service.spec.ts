import type { AuditRecorder } from '@medfolio/audit-client';
import type { CallerIdentity } from '@medfolio/contracts';
import { automock, refusal } from '@medfolio/testing';
import { SummaryConfig } from '../config';
import { SummaryItemsRepository } from '../repositories/summary-items.repository';
import { SummaryService } from './summary.service';

const caller: CallerIdentity = { userId: 'user-1', roles: ['patient'], correlationId: 'corr-1' };
const row = { id: '6f1c1c9e-0d7b-4c1e-9d3a-1f2e3d4c5b6a', ownerId: 'user-1', label: 'first', createdAt: new Date('2026-01-02T03:04:05Z') };

describe('SummaryService', () => {
  function setUp() {
    // Repositories are mocked from their class: a new method needs no hand-written fake.
    const items = automock(SummaryItemsRepository);
    const audit = { record: jest.fn().mockResolvedValue(undefined) };
    const service = new SummaryService(new SummaryConfig(), items, audit as unknown as AuditRecorder);
    return { service, items, audit };
  }

  it("creates an item for the caller and audits it", async () => {
    const { service, items, audit } = setUp();
    items.add.mockResolvedValue(row);
    await expect(service.create(caller, { label: 'first' })).resolves.toEqual({ id: row.id, label: 'first', created_at: '2026-01-02T03:04:05.000Z' });
    expect(items.add).toHaveBeenCalledWith(expect.objectContaining({ ownerId: 'user-1', label: 'first' }));
    expect(audit.record).toHaveBeenCalledWith(caller, expect.objectContaining({ action: 'summary.item.create', patientId: 'user-1' }));
  });

  it("lists only the caller's items, at most the configured number", async () => {
    const { service, items } = setUp();
    items.listByOwner.mockResolvedValue([row]);
    await expect(service.list(caller)).resolves.toHaveLength(1);
    expect(items.listByOwner).toHaveBeenCalledWith('user-1', new SummaryConfig().listLimit);
  });

  it('refuses a caller without a user', async () => {
    const { service, items } = setUp();
    expect(await refusal(service.list({ roles: [], correlationId: 'c' }))).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(items.listByOwner).not.toHaveBeenCalled();
  });
});

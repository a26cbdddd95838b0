import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AuditRecorder } from '@medfolio/audit-client';
import { DomainError, type CallerIdentity, type CreateSummaryItemDto, type SummaryItemView } from '@medfolio/contracts';
import { SummaryConfig } from '../config';
import type { SummaryItem } from '../entities';
import { SummaryItemsRepository } from '../repositories/summary-items.repository';

/** The logic: who may do what, and the audit record of every access (before any data leaves). No I/O of its own. */
@Injectable()
export class SummaryService {
  constructor(
    @Inject(SummaryConfig) private readonly config: SummaryConfig,
    @Inject(SummaryItemsRepository) private readonly items: SummaryItemsRepository,
    @Inject(AuditRecorder) private readonly audit: AuditRecorder,
  ) {}

  async create(caller: CallerIdentity, dto: CreateSummaryItemDto): Promise<SummaryItemView> {
    const ownerId = requireUser(caller);
    const item = await this.items.add({ id: randomUUID(), ownerId, label: dto.label });
    await this.audit.record(caller, { action: 'summary.item.create', entityType: 'summary-item', entityId: item.id, patientId: ownerId, outcome: 'success', policy: 'owner' });
    return toView(item);
  }

  async list(caller: CallerIdentity): Promise<SummaryItemView[]> {
    const ownerId = requireUser(caller);
    const rows = await this.items.listByOwner(ownerId, this.config.listLimit);
    await this.audit.record(caller, { action: 'summary.item.list', entityType: 'summary-item', patientId: ownerId, outcome: 'success', policy: 'owner' });
    return rows.map(toView);
  }
}

/** The signed-in user, from the caller identity the gateway built from the verified token. */
function requireUser(caller: CallerIdentity): string {
  if (!caller.userId) throw new DomainError('UNAUTHENTICATED', 'Please sign in again.');
  return caller.userId;
}

function toView(item: SummaryItem): SummaryItemView {
  return { id: item.id, label: item.label, created_at: item.createdAt.toISOString() };
}

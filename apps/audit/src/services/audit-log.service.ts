import { Inject, Injectable, Logger } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import {
  AuditEventDto,
  DomainError,
  type CallerIdentity,
  type HistoryEntry,
  type HistoryPage,
  type HistoryQueryDto,
} from '@medfolio/contracts';
import { AuditRecorder } from '@medfolio/audit-client';
import type { AuditLogEntry } from '../entities/audit-log-entry.entity';
import { AuditLogRepository, type AppendResult } from '../repositories/audit-log.repository';
import { ChainVerifier, type ChainBreak } from './hash-chain';

export interface VerifyReport {
  intact: boolean;
  checked: number;
  firstBreak: ChainBreak | null;
}

@Injectable()
export class AuditLogService {
  private readonly logger = new Logger(AuditLogService.name);

  constructor(
    @Inject(AuditLogRepository) private readonly repository: AuditLogRepository,
    @Inject(AuditRecorder) private readonly recorder: AuditRecorder,
  ) {}

  /** Stores one record from the AUDIT stream. An invalid record throws (and ends in the DLQ). */
  async append(payload: unknown): Promise<AppendResult> {
    const event = plainToInstance(AuditEventDto, payload);
    const errors = validateSync(event, { forbidUnknownValues: true });
    if (errors.length > 0) {
      throw new DomainError('VALIDATION_FAILED', `Invalid audit record: ${errors.map((e) => e.property).join(', ')}`);
    }
    const result = await this.repository.append(event, new Date());
    if (result === 'duplicate') this.logger.debug({ eventId: event.id }, 'audit record already stored');
    return result;
  }

  /** The signed-in patient's access history, newest first. Reading it is itself audited. */
  async history(caller: CallerIdentity, query: HistoryQueryDto): Promise<HistoryPage> {
    if (!caller.userId) throw new DomainError('UNAUTHENTICATED', 'Please sign in to see your access history.');
    const page = query.page ?? 1;
    const pageSize = query.page_size ?? 20;
    await this.recorder.record(caller, {
      action: 'history.read',
      entityType: 'audit-log',
      patientId: caller.userId,
      outcome: 'success',
      policy: 'owner',
    });
    const [entries, total] = await this.repository.pageForPatient(caller.userId, page, pageSize);
    return { results: entries.map((e) => toHistoryEntry(e, caller.userId!)), page, page_size: pageSize, total };
  }

  /** Recomputes the whole chain; reports the first position where it breaks. */
  async verify(): Promise<VerifyReport> {
    const verifier = new ChainVerifier();
    for await (const entry of this.repository.inChainOrder()) {
      const broken = verifier.check(entry);
      if (broken) return { intact: false, checked: verifier.checked, firstBreak: broken };
    }
    return { intact: true, checked: verifier.checked, firstBreak: null };
  }
}

const ACTION_LABELS: Record<string, string> = {
  'history.read': 'Viewed access history',
  login: 'Signed in',
  'login.failed': 'Failed sign-in',
  'profile.read': 'Viewed profile',
  'profile.update': 'Changed profile',
  'profile.picture.update': 'Changed profile picture',
  'account.register': 'Created the account',
  'account.verify': 'Verified the e-mail address',
  'password.change': 'Changed password',
  'password.reset': 'Reset password',
  'token.reuse-detected': 'Signed out everywhere: a used sign-in token was presented again',
  'document.upload': 'Uploaded a document',
  'document.list': 'Listed documents',
  'document.download-link': 'Downloaded a document',
  'document.delete': 'Deleted a document',
  'document.integrity-check': 'Checked a stored document',
  'summary.read': 'Viewed summary',
};

/**
 * Why an entry failed or was refused, from what the record holds (action and outcome; records carry
 * identifiers only, never the request's data). Keyed 'action/outcome'.
 */
const REASONS: Record<string, string> = {
  'login.failed/failure': 'Wrong e-mail address or password.',
  'password.change/failure': 'The current password given was wrong; nothing was changed.',
  'token.reuse-detected/denied': 'A sign-in token that had already been used was presented again, so every sign-in was ended.',
  'document.upload/failure': 'The upload did not complete; nothing of it was kept.',
  'document.download-link/failure': 'There is no such document (it may have been deleted).',
  'document.delete/failure': 'There is no such document (it may have been deleted already).',
  'document.download-link/denied': 'Another account asked for this document and was refused.',
  'document.delete/denied': 'Another account tried to delete this document and was refused.',
  'document.integrity-check/failure': 'The stored file did not match its fingerprint, so it was not served.',
};

export function reasonFor(action: string, outcome: string): string | null {
  if (outcome === 'success') return null;
  return REASONS[`${action}/${outcome}`] ?? (outcome === 'denied' ? 'Refused: not allowed.' : 'The request did not succeed.');
}

function toHistoryEntry(entry: AuditLogEntry, patientId: string): HistoryEntry {
  const who =
    entry.actor === patientId ? 'you' : entry.actor === 'anonymous' ? (entry.policy?.startsWith('share-link:') ? 'someone with your shared link' : 'anonymous') : entry.actor;
  return {
    id: entry.eventId,
    when: entry.occurredAt.toISOString(),
    who,
    action: entry.action,
    what: ACTION_LABELS[entry.action] ?? entry.action,
    outcome: entry.outcome as HistoryEntry['outcome'],
    from: entry.ip,
    user_agent: entry.userAgent,
    entity_type: entry.entityType,
    entity_id: entry.entityId,
    reason: reasonFor(entry.action, entry.outcome),
  };
}

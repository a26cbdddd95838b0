import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  type AuditEventDto,
  DomainError,
  type CallerIdentity,
  type HistoryEntry,
  type HistoryPage,
  type HistoryQueryDto,
} from '@medfolio/contracts';
import { AuditRecorder } from '@medfolio/audit-client';
import type { AuditLogEntry } from '../entities/audit-log-entry.entity';
import { AuditLogRepository, type AppendResult } from '../repositories/audit-log.repository';
import { PeopleRepository, type PersonName } from '../repositories/people.repository';
import { AppendBatcher } from './append-batcher';
import { ChainVerifier, type ChainBreak } from './hash-chain';

/** Most records in one append transaction (the writer takes up to AUDIT_WRITER_IN_FLIGHT at a time). */
export const APPEND_BATCH_MAX = 500;

export interface VerifyReport {
  intact: boolean;
  checked: number;
  firstBreak: ChainBreak | null;
}

@Injectable()
export class AuditLogService {
  private readonly logger = new Logger(AuditLogService.name);
  /** The records being delivered together are appended together (one transaction per batch). */
  private readonly batcher = new AppendBatcher<AuditEventDto, AppendResult>(
    (events) => this.repository.appendBatch(events, new Date()),
    APPEND_BATCH_MAX,
  );

  constructor(
    @Inject(AuditLogRepository) private readonly repository: AuditLogRepository,
    @Inject(AuditRecorder) private readonly recorder: AuditRecorder,
    @Inject(PeopleRepository) private readonly people: PeopleRepository,
  ) {}

  /**
   * Stores one record from the AUDIT stream (validated by the service kit: an invalid one goes to the
   * DLQ before it gets here); resolves once it is committed (then the delivery is acked). Records
   * delivered together share a transaction.
   */
  async append(event: AuditEventDto): Promise<AppendResult> {
    const result = await this.batcher.submit(event);
    if (result === 'duplicate') this.logger.debug({ eventId: event.id }, 'audit record already stored');
    return result;
  }

  /** The signed-in patient's access history, newest first. Reading it is itself audited. */
  async history(caller: CallerIdentity, query: HistoryQueryDto): Promise<HistoryPage> {
    if (!caller.userId) throw new DomainError('UNAUTHENTICATED', 'Please sign in to see your access history.');
    const page = query.page ?? 1;
    const pageSize = query.page_size ?? 20;
    // The page is read while the audit record is being stored; it is handed out only once the
    // record is acknowledged (a failed record throws, and the page read is dropped).
    const reading = this.repository.pageForPatient(caller.userId, page, pageSize);
    reading.catch(() => undefined);
    await this.recorder.record(caller, {
      action: 'history.read',
      entityType: 'audit-log',
      patientId: caller.userId,
      outcome: 'success',
      policy: 'owner',
    });
    const [entries, total] = await reading;
    // Proxies (policy proxy:<role>) are named as identity knows them now; the log keeps ids only.
    const proxies = [...new Set(entries.filter((e) => e.policy?.startsWith('proxy:')).map((e) => e.actor))];
    const names = await this.people.namesOn(caller, caller.userId, proxies);
    const me = caller.actor?.userId ?? caller.userId;
    return { results: entries.map((e) => toHistoryEntry(e, caller.userId!, me, names)), page, page_size: pageSize, total };
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
  'login.step-up': 'Signing in from a new device: a sign-in code was e-mailed',
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
  'trends.read': 'Viewed health trends',
  'family.dependant.add': 'Added this family member',
  'family.invite.create': 'Invited a caregiver',
  'family.invite.withdraw': "Withdrew a caregiver's invitation",
  'family.invite.accept': 'Accepted an invitation as caregiver',
  'family.grant.role': "Changed a caregiver's role",
  'family.grant.renew': "Renewed a caregiver's access",
  'family.grant.revoke': "Revoked a caregiver's access",
  'family.grant.leave': 'Gave up caregiver access',
  'trends.export': 'Exported health trends (CSV)',
  'connections.connection.start': 'Started connecting a hospital or clinic',
  'connections.connection.create': 'Connected a hospital or clinic',
  'connections.connection.list': 'Viewed your hospital and clinic connections',
  'connections.connection.delete': 'Disconnected a hospital or clinic',
  'connections.connection.sync': 'Fetched records from a hospital or clinic',
  'connections.shl.receive': "Received records from a clinic's SMART Health Link",
  'license.verify': 'Claimed a medical license (the NPI Registry matched your name)',
  // An operator's review of licence claims, and disputes over a number.
  'license.review.approve': 'An operator verified your medical license',
  'license.review.reject': 'An operator rejected your medical license claim',
  'license.dispute': "Disputed another account's claim on a medical license number",
  'license.dispute.uphold': 'An operator upheld a dispute over a medical license number',
  'license.dispute.dismiss': 'An operator dismissed a dispute over a medical license number',
  'license.drop': 'Your medical license claim ended: the name on your profile changed',
  'provider-access.request': 'Asked to see your documents',
  'provider-access.grant': 'Was given access to your documents by your share link',
  'provider-access.approve': "Approved a provider's access to your documents",
  'provider-access.decline': "Declined a provider's request",
  'provider-access.revoke': "Revoked a provider's access",
  'provider-access.end': "A provider's access ended with the share link that gave it",
  // Share links. The web app names the link by its label from the patient's own list
  // ("Your summary was viewed through 'For Dr Lee'"), as it names documents.
  'summary.shared-view': 'Your summary was viewed through a shared link',
  'share-link.create': 'Made a share link',
  'share-link.update': 'Changed a share link',
  'share-link.revoke': 'Revoked a share link',
  'share-link.unlock': 'Wrong passcode for a shared link',
  'share-link.locked': 'A shared link was locked after too many wrong passcodes',
};

/**
 * Why an entry failed or was refused, from what the record holds (action and outcome; records carry
 * identifiers only, never the request's data). Keyed 'action/outcome'.
 */
const REASONS: Record<string, string> = {
  'login.failed/failure': 'Wrong e-mail address or password.',
  'login.step-up/denied': 'The password was right, but many sign-ins had failed on this account, so a new device also needs the code we e-mailed.',
  'account.register/denied': 'Someone tried to sign up with your e-mail address; nothing was changed and we e-mailed you.',
  'password.change/failure': 'The current password given was wrong; nothing was changed.',
  'token.reuse-detected/denied': 'A sign-in token that had already been used was presented again, so every sign-in was ended.',
  'document.upload/failure': 'The upload did not complete; nothing of it was kept.',
  'document.download-link/failure': 'There is no such document (it may have been deleted).',
  'document.delete/failure': 'There is no such document (it may have been deleted already).',
  'document.download-link/denied': 'Another account asked for this document and was refused.',
  'document.delete/denied': 'Another account tried to delete this document and was refused.',
  'document.integrity-check/failure': 'The stored file did not match its fingerprint, so it was not served.',
  'license.verify/failure': 'The registry did not confirm this license number for your name (or could not be asked).',
  'license.verify/denied': 'Refused: another account claims the number, your claim on it was rejected, or too many attempts.',
  'document.list/denied': 'A provider without your permission asked for your documents and was refused.',
  'summary.read/denied': 'Someone without your permission asked for your summary and was refused.',
  'summary.shared-view/denied': 'The link was revoked, expired or locked, so nothing was shown.',
  'share-link.unlock/failure': 'Someone entered a wrong passcode for this link.',
  'share-link.locked/failure': 'Too many wrong passcodes: the link no longer opens until you set a new passcode.',
};

/**
 * A provider's access is recorded under the policy `provider:<grant or request id>:<name>`,
 * the name as the registry gives it ("Dr Ana Ruiz (NPI 1234567893)"), so the history names them.
 */
export function providerName(policy: string | null | undefined): string | null {
  if (!policy?.startsWith('provider:')) return null;
  const rest = policy.slice('provider:'.length);
  const colon = rest.indexOf(':');
  return colon >= 0 && colon < rest.length - 1 ? rest.slice(colon + 1) : null;
}

export function reasonFor(action: string, outcome: string): string | null {
  if (outcome === 'success') return null;
  return REASONS[`${action}/${outcome}`] ?? (outcome === 'denied' ? 'Refused: not allowed.' : 'The request did not succeed.');
}

function toHistoryEntry(entry: AuditLogEntry, patientId: string, me: string, names: Map<string, PersonName> = new Map()): HistoryEntry {
  const proxy = entry.policy?.startsWith('proxy:') && entry.actor !== patientId;
  const person = proxy ? names.get(entry.actor) : undefined;
  const relation = proxy ? (person && person.relation !== 'self' ? person.relation : entry.policy === 'proxy:guardian' ? 'guardian' : 'caregiver') : null;
  const proxyWho = proxy ? `${person?.first_name || (relation === 'guardian' ? 'A guardian' : 'A caregiver')} (${relation})` : null;
  const who =
    entry.actor === me
      ? 'you'
      : proxyWho
        ? proxyWho
        : entry.actor === patientId
          ? "the record's owner"
          : entry.actor === 'anonymous'
            ? entry.policy?.startsWith('share-link:')
              ? 'someone with your shared link'
              : 'anonymous'
            : (providerName(entry.policy) ?? entry.actor);
  return {
    id: entry.eventId,
    when: entry.occurredAt.toISOString(),
    who,
    actor_name: proxy ? (person?.first_name ?? null) : null,
    actor_relation: relation,
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

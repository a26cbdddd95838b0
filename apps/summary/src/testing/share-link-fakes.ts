// In-memory stand-ins for share links' repositories and audit, for unit tests of SharingService.
import type { EntityManager } from 'typeorm';
import type { CallerIdentity } from '@medfolio/contracts';
import type { ShareLink } from '../entities';
import type { ShareLinkState } from '../repositories/share-links.repository';

const NO_MANAGER = {} as EntityManager;

/** share_links as rows in memory, with the events the real one writes to the outbox. */
export class FakeShareLinks {
  readonly rows: ShareLink[] = [];
  readonly events: Array<{ linkId: string; state: ShareLinkState; version: number }> = [];

  async byHash(shareHash: string): Promise<ShareLink | null> {
    return this.copy(this.rows.find((r) => r.shareHash === shareHash));
  }

  async ofOwner(ownerId: string, linkId: string): Promise<ShareLink | null> {
    return this.copy(this.rows.find((r) => r.ownerId === ownerId && r.id === linkId));
  }

  async listForOwner(ownerId: string): Promise<ShareLink[]> {
    return this.rows.filter((r) => r.ownerId === ownerId).map((r) => ({ ...r }));
  }

  async live(ownerId: string, purpose: ShareLink['purpose']): Promise<ShareLink | null> {
    return this.copy(this.rows.find((r) => r.ownerId === ownerId && r.purpose === purpose && !r.revokedAt));
  }

  async forOwner<T>(_ownerId: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return work(NO_MANAGER);
  }

  async insert(_manager: EntityManager, link: ShareLink): Promise<void> {
    this.rows.push({ ...link });
    this.events.push({ linkId: link.id, state: 'active', version: link.version });
  }

  async save(_manager: EntityManager, link: ShareLink, state: ShareLinkState): Promise<void> {
    const at = this.rows.findIndex((r) => r.id === link.id);
    this.rows[at] = { ...link };
    this.events.push({ linkId: link.id, state, version: link.version });
  }

  /** As the real one: counts the attempt unless the limit is reached (then null). */
  async claimAttempt(linkId: string, limit: number): Promise<number | null> {
    const row = this.row(linkId);
    if (row.failedAttempts >= limit) return null;
    row.failedAttempts += 1;
    return row.failedAttempts;
  }

  async resetAttempts(linkId: string, passcodeHash: string): Promise<void> {
    const row = this.row(linkId);
    if (row.passcodeHash === passcodeHash) row.failedAttempts = 0;
  }

  /** Counts the view; claims the owner's e-mail at most once an hour, as the real statement does. */
  async viewed(linkId: string, at: Date): Promise<{ notify: boolean }> {
    const row = this.row(linkId);
    row.viewCount += 1;
    row.lastViewedAt = at;
    const due = row.notifyOnView && row.notifyEmailSealed !== null && (row.lastNotifiedAt === null || row.lastNotifiedAt.getTime() <= at.getTime() - 3_600_000);
    if (due) row.lastNotifiedAt = at;
    return { notify: due };
  }

  async unclaimNotification(linkId: string, at: Date): Promise<void> {
    const row = this.row(linkId);
    if (row.lastNotifiedAt?.getTime() === at.getTime()) row.lastNotifiedAt = null;
  }

  row(linkId: string): ShareLink {
    const row = this.rows.find((r) => r.id === linkId);
    if (!row) throw new Error(`no share link ${linkId}`);
    return row;
  }

  private copy(row: ShareLink | undefined): ShareLink | null {
    return row ? { ...row } : null;
  }
}

/** SummaryAudit's share records, in memory; `failing` makes the fail-closed record throw. */
export class FakeShareAudit {
  readonly records: Array<{ action: string; outcome: string; subject: string }> = [];
  failing = false;

  async recordShare(_caller: CallerIdentity, action: string, outcome: string, link: { id: string }): Promise<void> {
    if (this.failing) throw new Error('audit unavailable');
    this.records.push({ action, outcome, subject: link.id });
  }

  async recordShareQuietly(caller: CallerIdentity, action: string, outcome: string, link: { id: string }): Promise<void> {
    await this.recordShare(caller, action, outcome, link).catch(() => undefined);
  }

  async record(_caller: CallerIdentity, action: string, outcome: string, patientId: string): Promise<void> {
    if (this.failing) throw new Error('audit unavailable');
    this.records.push({ action, outcome, subject: patientId });
  }

  async recordQuietly(caller: CallerIdentity, action: string, outcome: string, patientId: string): Promise<void> {
    await this.record(caller, action, outcome, patientId).catch(() => undefined);
  }
}

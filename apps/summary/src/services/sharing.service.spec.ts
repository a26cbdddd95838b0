import { randomBytes } from 'node:crypto';
import { DomainError, SHARE_PASSCODE_ATTEMPTS, SHARING_MESSAGES, type CallerIdentity, type ShareLinkItem } from '@medfolio/contracts';
import type { OutboxRelay } from '@medfolio/messaging/outbox';
import { automock, refusal } from '@medfolio/testing';
import { SummaryConfig } from '../config';
import { PatientIdentityRepository } from '../repositories/patient-identity.repository';
import type { ShareLinksRepository } from '../repositories/share-links.repository';
import { ShareNotifierRepository } from '../repositories/share-notifier.repository';
import { SummaryVersionsRepository } from '../repositories/summary-versions.repository';
import { FakeShareAudit, FakeShareLinks } from '../testing/share-link-fakes';
import { ShareLinkKeys, shareHash } from './share-link-keys';
import { DEFAULT_LINK_DAYS, SharingService } from './sharing.service';
import { TrendsService } from './trends.service';
import type { SummaryAudit } from './summary-audit';

const OWNER = '1f1e2d3c-0000-4000-8000-000000000001';
const owner: CallerIdentity = { userId: OWNER, roles: [], correlationId: 'c-1' };
const visitor: CallerIdentity = { roles: [], correlationId: 'c-2' };
const DAY = 24 * 3600 * 1000;

function setup() {
  const links = new FakeShareLinks();
  const audit = new FakeShareAudit();
  const versions = automock(SummaryVersionsRepository);
  const notifier = automock(ShareNotifierRepository);
  const identities = automock(PatientIdentityRepository);
  const trends = automock(TrendsService);
  trends.series.mockResolvedValue([]);
  trends.fullAccess.mockResolvedValue(false);
  versions.confirmedVersion.mockResolvedValue(null);
  notifier.ownerEmail.mockResolvedValue('owner@example.test');
  notifier.sendViewed.mockResolvedValue(undefined);
  identities.of.mockResolvedValue({ first_name: 'Ada', last_name: 'Example', date_of_birth: '1980-04-02' });
  const keys = new ShareLinkKeys(randomBytes(32));
  const config = new SummaryConfig();
  config.publicBaseUrl = 'https://medfolio.test';
  const relay = { kick: jest.fn() };
  const service = new SharingService(
    links as unknown as ShareLinksRepository,
    versions,
    notifier,
    audit as unknown as SummaryAudit,
    keys,
    config,
    relay as unknown as OutboxRelay,
    identities,
    trends,
  );
  return { service, links, audit, versions, notifier, keys, relay };
}

/** A custom link made through the service, with its share id. */
async function made(service: SharingService, extra: Partial<{ passcode: string; expires_at: string; notify_on_view: boolean }> = {}): Promise<ShareLinkItem> {
  return service.create(owner, { label: 'For my GP', ...extra });
}

describe('SharingService', () => {
  describe('resolve', () => {
    it("gives another service a usable link's owner and flags, by share id", async () => {
      const { service } = setup();
      const link = await made(service);
      expect(await service.resolve({ share_id: link.share_id })).toEqual({
        link_id: link.id, owner_id: OWNER, label: 'For my GP', purpose: 'custom', providers_may_see_documents: false, expires_at: null,
      });
    });

    it('answers the same 404 for an unknown, malformed, revoked, expired and locked id', async () => {
      const { service, links } = setup();
      const revoked = await made(service);
      await service.revoke(owner, { link_id: revoked.id });
      const expired = await made(service);
      links.row(expired.id).expiresAt = new Date(Date.now() - 1000);
      const locked = await made(service, { passcode: '123456' });
      links.row(locked.id).failedAttempts = SHARE_PASSCODE_ATTEMPTS;
      for (const shareId of [randomBytes(16).toString('base64url'), 'short', revoked.share_id, expired.share_id, locked.share_id]) {
        expect(await refusal(service.resolve({ share_id: shareId }))).toMatchObject({ code: 'NOT_FOUND', message: SHARING_MESSAGES.notValid });
      }
    });

    it('a passcode link resolves only with a view token made for it under its current passcode', async () => {
      const { service, keys } = setup();
      const link = await made(service, { passcode: '123456' });
      expect(await refusal(service.resolve({ share_id: link.share_id }))).toMatchObject({ code: 'FORBIDDEN', message: SHARING_MESSAGES.passcodeRequired });
      const { view_token } = await service.unlock(visitor, { user: link.share_id, passcode: '123456' });
      expect(await service.resolve({ share_id: link.share_id, view_token })).toMatchObject({ link_id: link.id, owner_id: OWNER });
      // A token for the link under another passcode (or another link) opens nothing.
      const stale = keys.viewToken(link.id, 'another-hash', new Date(Date.now() + 60_000));
      expect(await refusal(service.resolve({ share_id: link.share_id, view_token: stale }))).toMatchObject({ code: 'FORBIDDEN' });
      await service.update(owner, { link_id: link.id, passcode: '654321' });
      expect(await refusal(service.resolve({ share_id: link.share_id, view_token }))).toMatchObject({ code: 'FORBIDDEN' });
    });
  });

  describe('ownersLink', () => {
    it("is the owner's own usable link only", async () => {
      const { service } = setup();
      const link = await made(service);
      expect(await service.ownersLink(OWNER, link.share_id)).toMatchObject({ id: link.id });
      expect(await service.ownersLink('someone-else', link.share_id)).toBeNull();
      expect(await service.ownersLink(undefined, link.share_id)).toBeNull();
      await service.revoke(owner, { link_id: link.id });
      expect(await service.ownersLink(OWNER, link.share_id)).toBeNull();
    });
  });

  describe('unlock', () => {
    it('a link without a passcode gives a view token at once, counting no attempt', async () => {
      const { service, links } = setup();
      const link = await made(service);
      expect((await service.unlock(visitor, { user: link.share_id, passcode: 'anything' })).view_token).toMatch(/^\d+\./);
      expect(links.row(link.id).failedAttempts).toBe(0);
    });

    it('counts wrong passcodes, says the attempts left, and locks the link at the limit', async () => {
      const { service, links, audit } = setup();
      const link = await made(service, { passcode: '123456' });
      for (let left = SHARE_PASSCODE_ATTEMPTS - 1; left >= 0; left--) {
        const error = await refusal(service.unlock(visitor, { user: link.share_id, passcode: '000000' }));
        expect(error).toMatchObject({ code: 'UNAUTHENTICATED', message: SHARING_MESSAGES.wrongPasscode(left) });
        expect(error.details).toMatchObject({ remaining_attempts: [String(left)] });
      }
      expect(links.row(link.id).failedAttempts).toBe(SHARE_PASSCODE_ATTEMPTS);
      expect(audit.records.filter((r) => r.action === 'share-link.locked')).toHaveLength(1);
      // Locked: even the right passcode now answers "not valid", and the link no longer resolves.
      expect(await refusal(service.unlock(visitor, { user: link.share_id, passcode: '123456' }))).toMatchObject({ code: 'NOT_FOUND', message: SHARING_MESSAGES.notValid });
      expect(await refusal(service.resolve({ share_id: link.share_id }))).toMatchObject({ code: 'NOT_FOUND' });
      // The owner's new passcode unlocks it.
      const item = await service.update(owner, { link_id: link.id, passcode: '222222' });
      expect(item.locked).toBe(false);
      expect((await service.unlock(visitor, { user: link.share_id, passcode: '222222' })).view_token).toBeTruthy();
    });

    it('the right passcode starts the attempts again', async () => {
      const { service, links } = setup();
      const link = await made(service, { passcode: '123456' });
      await refusal(service.unlock(visitor, { user: link.share_id, passcode: '000000' }));
      await refusal(service.unlock(visitor, { user: link.share_id, passcode: '000000' }));
      await service.unlock(visitor, { user: link.share_id, passcode: '123456' });
      expect(links.row(link.id).failedAttempts).toBe(0);
    });
  });

  describe('view', () => {
    it('audits, counts each view, and shows nothing unconfirmed', async () => {
      const { service, links, audit } = setup();
      const link = await made(service);
      const [item] = await service.view(visitor, { user: link.share_id });
      await service.view(visitor, { user: link.share_id });
      expect(item).toMatchObject({ status: 'unreviewed', sections: [], documents: [], shared: { label: 'For my GP' }, patient: { name: 'Ada Example' } });
      expect(links.row(link.id).viewCount).toBe(2);
      expect(audit.records.filter((r) => r.action === 'summary.shared-view' && r.outcome === 'success')).toHaveLength(2);
    });

    it('shows nothing and counts nothing when the audit record cannot be stored (fail closed)', async () => {
      const { service, links, audit } = setup();
      const link = await made(service);
      audit.failing = true;
      await expect(service.view(visitor, { user: link.share_id })).rejects.toThrow('audit unavailable');
      expect(links.row(link.id).viewCount).toBe(0);
    });

    it('a revoked link is refused and recorded as denied; a passcode link needs its view token', async () => {
      const { service, audit } = setup();
      const revoked = await made(service);
      await service.revoke(owner, { link_id: revoked.id });
      expect(await refusal(service.view(visitor, { user: revoked.share_id }))).toMatchObject({ code: 'NOT_FOUND' });
      expect(audit.records).toContainEqual({ action: 'summary.shared-view', outcome: 'denied', subject: revoked.id });
      const locked = await made(service, { passcode: '123456' });
      expect(await refusal(service.view(visitor, { user: locked.share_id }))).toMatchObject({ code: 'FORBIDDEN' });
      const { view_token } = await service.unlock(visitor, { user: locked.share_id, passcode: '123456' });
      expect(await service.view(visitor, { user: locked.share_id, view_token })).toHaveLength(1);
    });

    it('e-mails the owner on a view when asked, at most once an hour per link', async () => {
      const { service, notifier } = setup();
      const link = await made(service, { notify_on_view: true });
      await service.view(visitor, { user: link.share_id });
      await service.view(visitor, { user: link.share_id });
      await new Promise((resolve) => setImmediate(resolve));
      expect(notifier.sendViewed).toHaveBeenCalledTimes(1);
      expect(notifier.sendViewed.mock.calls[0]![1]).toBe('owner@example.test');
    });
  });

  describe('create and update', () => {
    it('makes a custom link with a trimmed label, its URL and an active event', async () => {
      const { service, links, relay } = setup();
      const item = await service.create(owner, { label: '  For my GP  ', passcode: '123456' });
      expect(item).toMatchObject({ label: 'For my GP', purpose: 'custom', has_passcode: true, locked: false, version: 1, view_count: 0 });
      expect(item.url).toBe(`https://medfolio.test/summary/${item.share_id}`);
      expect(links.rows[0]!.shareHash).toBe(shareHash(item.share_id));
      expect(links.rows[0]!.passcodeHash).not.toContain('123456');
      expect(links.events).toEqual([{ linkId: item.id, state: 'active', version: 1 }]);
      expect(relay.kick).toHaveBeenCalled();
    });

    it('refuses an expiry in the past, more than a year ahead, or not a date', async () => {
      const { service, links } = setup();
      for (const expires_at of [new Date(Date.now() - DAY).toISOString(), new Date(Date.now() + 367 * DAY).toISOString(), 'not a date']) {
        expect(await refusal(service.create(owner, { label: 'x', expires_at }))).toMatchObject({ code: 'VALIDATION_FAILED', message: SHARING_MESSAGES.expiryInPast });
      }
      expect(links.rows).toHaveLength(0);
      const ok = await service.create(owner, { label: 'x', expires_at: new Date(Date.now() + 365 * DAY).toISOString() });
      expect(await refusal(service.update(owner, { link_id: ok.id, expires_at: new Date(Date.now() - 1000).toISOString() }))).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect((await service.update(owner, { link_id: ok.id, expires_at: null })).expires_at).toBeNull();
    });

    it('refuses a signed-out caller, a 51st live link, and changes to a revoked or unknown link', async () => {
      const { service } = setup();
      expect(await refusal(service.create(visitor, { label: 'x' }))).toMatchObject({ code: 'UNAUTHENTICATED' });
      const first = await made(service);
      for (let i = 1; i < 50; i++) await made(service);
      expect(await refusal(made(service))).toMatchObject({ code: 'CONFLICT' });
      await service.revoke(owner, { link_id: first.id });
      await made(service);
      expect(await refusal(service.update(owner, { link_id: first.id, label: 'again' }))).toMatchObject({ code: 'CONFLICT' });
      expect(await refusal(service.update(owner, { link_id: '00000000-0000-4000-8000-000000000000', label: 'x' }))).toMatchObject({ code: 'NOT_FOUND', message: SHARING_MESSAGES.linkNotFound });
    });

    it("updates the label and passcode, bumping the version; another owner's link is not found", async () => {
      const { service, links } = setup();
      const link = await made(service);
      const item = await service.update(owner, { link_id: link.id, label: ' Dentist ', passcode: '123456' });
      expect(item).toMatchObject({ label: 'Dentist', has_passcode: true, version: 2 });
      expect((await service.update(owner, { link_id: link.id, passcode: null })).has_passcode).toBe(false);
      expect(links.events.map((e) => e.state)).toEqual(['active', 'active', 'active']);
      const stranger: CallerIdentity = { userId: 'other-user', roles: [], correlationId: 'c-9' };
      expect(await refusal(service.update(stranger, { link_id: link.id, label: 'mine' }))).toMatchObject({ code: 'NOT_FOUND' });
    });

    it('revoking twice changes the link once', async () => {
      const { service, links } = setup();
      const link = await made(service);
      const first = await service.revoke(owner, { link_id: link.id });
      const second = await service.revoke(owner, { link_id: link.id });
      expect(second.revoked_at).toBe(first.revoked_at);
      expect(links.events.map((e) => e.state)).toEqual(['active', 'revoked']);
    });
  });

  describe('ensure (the default link)', () => {
    it('makes one default link that lasts DEFAULT_LINK_DAYS, and gives the same one again', async () => {
      const { service, links } = setup();
      const first = await service.ensure(owner, { purpose: 'default' });
      const again = await service.ensure(owner, { purpose: 'default' });
      expect(again.id).toBe(first.id);
      expect(links.rows).toHaveLength(1);
      expect(first.label).toBe('My summary link');
      const days = (new Date(first.expires_at!).getTime() - Date.now()) / DAY;
      expect(days).toBeGreaterThan(DEFAULT_LINK_DAYS - 0.01);
      expect(days).toBeLessThanOrEqual(DEFAULT_LINK_DAYS);
    });

    it('retires an expired default link and makes a new one; a wallet link never expires', async () => {
      const { service, links } = setup();
      const old = await service.ensure(owner, { purpose: 'default' });
      links.row(old.id).expiresAt = new Date(Date.now() - 1000);
      const fresh = await service.ensure(owner, { purpose: 'default' });
      expect(fresh.id).not.toBe(old.id);
      expect(links.row(old.id).revokedAt).not.toBeNull();
      expect(links.events).toContainEqual({ linkId: old.id, state: 'expired', version: 2 });
      const wallet = await service.ensure(owner, { purpose: 'wallet' });
      expect(wallet).toMatchObject({ label: 'Wallet pass', expires_at: null });
    });
  });

  it("an unusable link's refusal carries no details (nothing says why)", async () => {
    const { service } = setup();
    const error = await refusal(service.resolve({ share_id: randomBytes(16).toString('base64url') }));
    expect(error).toBeInstanceOf(DomainError);
    expect(error.details).toBeUndefined();
  });
});

import type { AuditRecorder } from '@medfolio/audit-client';
import { DomainError, WALLET_MESSAGES, type CallerIdentity, type ShareLinkChangedEvent, type ShareLinkItem } from '@medfolio/contracts';
import { automock, refusal } from '@medfolio/testing';
import { WalletConfig } from '../config';
import type { ApnsRepository, PushResult } from '../repositories/apns.repository';
import { PassBlobsRepository } from '../repositories/pass-blobs.repository';
import type { PassesRepository } from '../repositories/passes.repository';
import { ProfilesRepository } from '../repositories/profiles.repository';
import { SharingRepository } from '../repositories/sharing.repository';
import { SigningMaterialRepository } from '../repositories/signing-material.repository';
import { FakePasses } from '../testing/passes-fake';
import { signPass } from './pass-signer';
import { WalletService } from './wallet.service';

// Signing is CMS over real keys (pass-signature.spec.ts covers it); here only that it happens, and when.
jest.mock('./pass-signer', () => ({ signPass: jest.fn(async () => Buffer.from('signed pass')), passImages: jest.fn(async () => ({})) }));

const OWNER = 'user-1';
const owner: CallerIdentity = { userId: OWNER, roles: ['patient'], correlationId: 'c-1' };

/** The wallet link the summary service answers with (only what the wallet reads of it). */
function link(id = 'link-1'): ShareLinkItem {
  return { id, version: 1, url: 'https://medfolio.test/summary/abc', purpose: 'wallet' } as ShareLinkItem;
}

function changed(state: ShareLinkChangedEvent['state'], overrides: Partial<ShareLinkChangedEvent> = {}): ShareLinkChangedEvent {
  return {
    link_id: 'link-1', owner_id: OWNER, purpose: 'wallet', state, version: 2, providers_may_see_documents: false, expires_at: null,
    changed_at: new Date().toISOString(), ...overrides,
  };
}

function setup() {
  const passes = new FakePasses();
  const blobs = automock(PassBlobsRepository);
  const sharing = automock(SharingRepository);
  const profiles = automock(ProfilesRepository);
  const signing = automock(SigningMaterialRepository);
  const pushed: string[][] = [];
  const apnsAnswers = new Map<string, number>();
  const apns = {
    enabled: true,
    notify: jest.fn(async (tokens: string[]): Promise<PushResult[]> => {
      pushed.push(tokens);
      return tokens.map((token) => ({ status: apnsAnswers.get(token) ?? 200 }) as PushResult);
    }),
  };
  const audit = { record: jest.fn().mockResolvedValue(undefined) };
  sharing.walletLink.mockResolvedValue(link());
  profiles.firstName.mockResolvedValue('Ada');
  signing.get.mockResolvedValue({ signerCert: 'c', signerKey: 'k', wwdr: 'w', origin: 'development', fingerprint: 'f1' });
  blobs.keyFor.mockImplementation((serial: string, digest: string) => `wallet-passes/${serial}-${digest}.pkpass`);
  blobs.put.mockResolvedValue(undefined);
  blobs.delete.mockResolvedValue(undefined);
  blobs.downloadUrl.mockImplementation(async (key: string) => `/api/files/${key}?signature=s`);
  const config = new WalletConfig();
  const service = new WalletService(config, passes as unknown as PassesRepository, blobs, sharing, profiles, signing, apns as unknown as ApnsRepository, audit as unknown as AuditRecorder);
  return { service, passes, blobs, sharing, profiles, signing, apns, apnsAnswers, pushed, audit, config };
}

describe('WalletService', () => {
  beforeEach(() => jest.mocked(signPass).mockClear());

  it('issues a pass on first use: a new serial and token, its own wallet link asked as the owner, signed and stored once', async () => {
    const { service, passes, sharing, blobs, audit } = setup();
    const reply = await service.passUrl(owner);
    expect(passes.rows).toHaveLength(1);
    const pass = passes.rows[0]!;
    expect(pass.authenticationToken.length).toBeGreaterThanOrEqual(16);
    expect(pass).toMatchObject({ ownerId: OWNER, linkId: 'link-1', linkVersion: 1, linkUrl: 'https://medfolio.test/summary/abc', linkState: 'active' });
    expect(sharing.walletLink).toHaveBeenCalledWith(expect.objectContaining({ userId: OWNER }));
    expect(signPass).toHaveBeenCalledTimes(1);
    expect(blobs.put).toHaveBeenCalledWith(pass.signedKey, Buffer.from('signed pass'));
    expect(reply.url).toBe(`/api/files/${pass.signedKey}?signature=s`);
    expect(audit.record).toHaveBeenCalledWith(owner, expect.objectContaining({ action: 'wallet.pass.download', entityId: pass.serialNumber, patientId: OWNER }));
  });

  it('hands out the stored pass again without asking for a link or signing again', async () => {
    const { service, passes, sharing } = setup();
    await service.passUrl(owner);
    await service.passUrl(owner);
    await service.view(owner);
    expect(passes.rows).toHaveLength(1);
    expect(sharing.walletLink).toHaveBeenCalledTimes(1);
    expect(signPass).toHaveBeenCalledTimes(1);
  });

  it('signs again, replacing the stored file, when the certificate changes', async () => {
    const { service, signing, blobs } = setup();
    await service.passUrl(owner);
    const first = blobs.put.mock.calls[0]![0];
    signing.get.mockResolvedValue({ signerCert: 'c2', signerKey: 'k2', wwdr: 'w', origin: 'configured', fingerprint: 'f2' });
    await service.passUrl(owner);
    expect(signPass).toHaveBeenCalledTimes(2);
    expect(blobs.delete).toHaveBeenCalledWith(first);
  });

  it('says the pass cannot be made now when the summary service does not answer', async () => {
    const { service, sharing } = setup();
    sharing.walletLink.mockRejectedValue(new DomainError('UPSTREAM_TIMEOUT', 'timeout'));
    expect(await refusal(service.passUrl(owner))).toMatchObject({ code: 'UNAVAILABLE', message: WALLET_MESSAGES.passUnavailable });
    sharing.walletLink.mockRejectedValue(new Error('socket closed'));
    expect(await refusal(service.passUrl(owner))).toMatchObject({ code: 'UNAVAILABLE' });
  });

  it('refuses a signed-out caller', async () => {
    const { service } = setup();
    const anonymous: CallerIdentity = { roles: [], correlationId: 'c-2' };
    for (const call of [service.passUrl(anonymous), service.view(anonymous), service.status(anonymous), service.updateSettings(anonymous, { show_name: true })]) {
      expect(await refusal(call)).toMatchObject({ code: 'UNAUTHENTICATED' });
    }
  });

  describe('the link revoked', () => {
    it('retires the pass, tells its devices, and drops a device APNs says is gone', async () => {
      const { service, passes, pushed, apnsAnswers } = setup();
      await service.passUrl(owner);
      const serial = passes.rows[0]!.serialNumber;
      passes.registrations.push(
        { deviceLibraryIdentifier: 'dev-1', serialNumber: serial, pushToken: 'p1', createdAt: new Date() },
        { deviceLibraryIdentifier: 'dev-2', serialNumber: serial, pushToken: 'p2', createdAt: new Date() },
      );
      apnsAnswers.set('p2', 410);
      await service.onLinkChanged(changed('revoked'));
      expect(passes.row(serial).retiredAt).not.toBeNull();
      expect(pushed).toEqual([['p1', 'p2']]);
      expect(passes.registrations.map((r) => r.deviceLibraryIdentifier)).toEqual(['dev-1']);
    });

    it('a retired pass is never rendered again, and no link is asked for it', async () => {
      const { service, passes, sharing } = setup();
      await service.passUrl(owner);
      const retired = passes.rows[0]!;
      await service.onLinkChanged(changed('expired'));
      expect(await refusal(service.render(passes.row(retired.serialNumber), 'c-3', { mayMakeLink: true }))).toMatchObject({ code: 'UNAUTHENTICATED', message: WALLET_MESSAGES.passRetired });
      // A pass that lost its link (not active) without being retired is not rendered either.
      expect(await refusal(service.render({ ...retired, retiredAt: null, linkState: 'revoked' }, 'c-3', { mayMakeLink: true }))).toMatchObject({ code: 'UNAUTHENTICATED' });
      // A device (mayMakeLink false) never obtains a link for a pass that has none.
      expect(await refusal(service.render({ ...retired, retiredAt: null, linkId: null }, 'c-3', { mayMakeLink: false }))).toMatchObject({ code: 'UNAUTHENTICATED' });
      expect(sharing.walletLink).toHaveBeenCalledTimes(1);
    });

    it('the owner then gets a new pass (new serial, token and link)', async () => {
      const { service, passes, sharing } = setup();
      await service.passUrl(owner);
      const old = passes.rows[0]!;
      await service.onLinkChanged(changed('revoked'));
      sharing.walletLink.mockResolvedValue(link('link-2'));
      await service.passUrl(owner);
      const fresh = (await passes.byOwner(OWNER))!;
      expect(fresh.serialNumber).not.toBe(old.serialNumber);
      expect(fresh.authenticationToken).not.toBe(old.authenticationToken);
      expect(fresh.linkId).toBe('link-2');
    });

    it('ignores events about links of another purpose; a new version of the same link keeps the pass and tells devices', async () => {
      const { service, passes, pushed } = setup();
      await service.passUrl(owner);
      const serial = passes.rows[0]!.serialNumber;
      passes.registrations.push({ deviceLibraryIdentifier: 'dev-1', serialNumber: serial, pushToken: 'p1', createdAt: new Date() });
      await service.onLinkChanged(changed('revoked', { purpose: 'default' }));
      expect(passes.row(serial).retiredAt).toBeNull();
      expect(pushed).toEqual([]);
      await service.onLinkChanged(changed('active', { version: 3 }));
      expect(passes.row(serial)).toMatchObject({ retiredAt: null, linkVersion: 3 });
      expect(pushed).toEqual([['p1']]);
    });
  });

  describe('status', () => {
    it('none before any pass, active with a live one, retired (with when) after its link is revoked; making nothing', async () => {
      const { service, passes } = setup();
      expect(await service.status(owner)).toEqual({ state: 'none', retired_at: null });
      expect(passes.rows).toHaveLength(0);
      await service.passUrl(owner);
      expect(await service.status(owner)).toEqual({ state: 'active', retired_at: null });
      await service.onLinkChanged(changed('revoked'));
      const status = await service.status(owner);
      expect(status.state).toBe('retired');
      expect(status.retired_at).toBe(passes.rows[0]!.retiredAt!.toISOString());
    });
  });

  describe('settings', () => {
    it('showing the name changes the pass (name shown, signed again, devices told, audited); the same setting again changes nothing', async () => {
      const { service, passes, pushed, audit, profiles } = setup();
      await service.passUrl(owner);
      const serial = passes.rows[0]!.serialNumber;
      passes.registrations.push({ deviceLibraryIdentifier: 'dev-1', serialNumber: serial, pushToken: 'p1', createdAt: new Date() });
      const view = await service.updateSettings(owner, { show_name: true });
      expect(passes.row(serial).showName).toBe(true);
      expect(JSON.stringify(view)).toContain('Ada');
      expect(profiles.firstName).toHaveBeenCalled();
      expect(signPass).toHaveBeenCalledTimes(2);
      expect(pushed).toEqual([['p1']]);
      expect(audit.record).toHaveBeenCalledWith(owner, expect.objectContaining({ action: 'wallet.pass.settings' }));
      const tag = passes.row(serial).updateTag;
      await service.updateSettings(owner, { show_name: true });
      expect(passes.row(serial).updateTag).toBe(tag);
      expect(pushed).toHaveLength(1);
      expect(signPass).toHaveBeenCalledTimes(2);
    });

    it('a hidden name is never asked of identity', async () => {
      const { service, profiles } = setup();
      const view = await service.view(owner);
      expect(profiles.firstName).not.toHaveBeenCalled();
      expect(JSON.stringify(view)).not.toContain('Ada');
    });
  });

  it('offers Google Wallet only when it is configured', async () => {
    const { service } = setup();
    expect(service.clientConfig()).toEqual({ apple_wallet: true, google_wallet: false });
    expect(await refusal(service.googleSaveUrl(owner))).toMatchObject({ code: 'UNAVAILABLE', message: WALLET_MESSAGES.googleNotConfigured });
  });
});

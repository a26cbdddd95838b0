import type { AuditRecorder } from '@medfolio/audit-client';
import type { CallerIdentity } from '@medfolio/contracts';
import { automock, refusal } from '@medfolio/testing';
import { WalletConfig } from '../config';
import type { WalletPass } from '../entities';
import { PassBlobsRepository } from '../repositories/pass-blobs.repository';
import { PassesRepository } from '../repositories/passes.repository';
import { PassKitService } from './passkit.service';
import { WalletService } from './wallet.service';

const device: CallerIdentity = { roles: [], correlationId: 'c-1' };
const config = new WalletConfig();
const pass: WalletPass = {
  serialNumber: '6f1c1c9e-0d7b-4c1e-9d3a-1f2e3d4c5b6a',
  ownerId: 'user-1',
  authenticationToken: 'token-token-token-token',
  showName: false,
  linkId: null,
  linkVersion: 1,
  linkUrl: 'https://medfolio.test/summary/x',
  linkState: 'active',
  retiredAt: null,
  updateTag: '7',
  updatedAt: new Date('2026-01-02T03:04:05.678Z'),
  signedDigest: 'd',
  signedKey: 'wallet-passes/k.pkpass',
  createdAt: new Date('2026-01-01T00:00:00Z'),
};

function setUp(held: WalletPass = pass) {
  const passes = automock(PassesRepository);
  const blobs = automock(PassBlobsRepository);
  const wallet = automock(WalletService);
  const audit = { record: jest.fn().mockResolvedValue(undefined) };
  passes.bySerial.mockImplementation(async (serial) => (serial === held.serialNumber ? held : null));
  wallet.render.mockResolvedValue({ pass: held, view: {} as never, key: held.signedKey! });
  blobs.downloadUrl.mockResolvedValue('/api/files/wallet-passes/k.pkpass?signature=s');
  const service = new PassKitService(config, passes, blobs, wallet, audit as unknown as AuditRecorder);
  return { service, passes, blobs, wallet, audit };
}

const request = { pass_type_identifier: config.passTypeIdentifier, serial_number: pass.serialNumber, authentication_token: pass.authenticationToken };

describe('PassKitService', () => {
  it('401 for a wrong, shorter or missing token; 404 for an unknown serial or pass type; nothing is served then', async () => {
    const { service, wallet } = setUp();
    for (const token of ['token-token-token-tokeX', 'token', '']) {
      expect(await refusal(service.pass({ ...request, authentication_token: token }, device))).toMatchObject({ code: 'UNAUTHENTICATED' });
    }
    expect(await refusal(service.pass({ ...request, serial_number: '00000000-0000-4000-8000-000000000000' }, device))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await refusal(service.pass({ ...request, serial_number: 'not-a-uuid' }, device))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await refusal(service.pass({ ...request, pass_type_identifier: 'pass.other' }, device))).toMatchObject({ code: 'NOT_FOUND' });
    expect(wallet.render).not.toHaveBeenCalled();
  });

  it('a retired pass (its link revoked) answers 401 to its own token everywhere, and nothing renders or links it', async () => {
    const { service, wallet, passes } = setUp({ ...pass, linkState: 'revoked', retiredAt: new Date('2026-01-03T00:00:00Z') });
    const registration = { ...request, device_library_identifier: 'dev-1', push_token: 'p' };
    for (const call of [service.pass(request, device), service.register(registration), service.unregister(registration)]) {
      expect(await refusal(call)).toMatchObject({ code: 'UNAUTHENTICATED', message: 'This pass was retired. Its holder can issue a new one.' });
    }
    expect(wallet.render).not.toHaveBeenCalled();
    expect(wallet.current).not.toHaveBeenCalled();
    expect(passes.register).not.toHaveBeenCalled();
  });

  it("renders the device's own pass and never lets it make a link", async () => {
    const { service, wallet } = setUp();
    await service.pass(request, device);
    expect(wallet.render).toHaveBeenCalledWith(pass, device.correlationId, { mayMakeLink: false });
    expect(wallet.current).not.toHaveBeenCalled();
  });

  it('answers Last-Modified in whole seconds, and not-modified when If-Modified-Since is that time or later', async () => {
    const { service, audit } = setUp();
    const latest = await service.pass(request, device);
    expect(latest).toEqual({ not_modified: false, last_modified: 'Fri, 02 Jan 2026 03:04:05 GMT', url: '/api/files/wallet-passes/k.pkpass?signature=s' });
    expect(audit.record).toHaveBeenCalledWith(device, expect.objectContaining({ action: 'wallet.pass.device-fetch', patientId: 'user-1', policy: 'pass-token' }));
    await expect(service.pass({ ...request, if_modified_since: 'Fri, 02 Jan 2026 03:04:05 GMT' }, device)).resolves.toMatchObject({ not_modified: true });
    await expect(service.pass({ ...request, if_modified_since: 'Fri, 02 Jan 2026 03:04:04 GMT' }, device)).resolves.toMatchObject({ not_modified: false });
    await expect(service.pass({ ...request, if_modified_since: 'yesterday' }, device)).resolves.toMatchObject({ not_modified: false });
  });

  it('registers with a push token only, and tells new from known registrations', async () => {
    const { service, passes } = setUp();
    passes.register.mockResolvedValueOnce(true).mockResolvedValueOnce(false);
    const registration = { ...request, device_library_identifier: 'dev-1', push_token: 'p' };
    await expect(service.register(registration)).resolves.toEqual({ status: 201 });
    await expect(service.register(registration)).resolves.toEqual({ status: 200 });
    expect(await refusal(service.register({ ...registration, push_token: '' }))).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(passes.register).toHaveBeenCalledTimes(2);
  });

  it('lists updated serials only for its own pass type, and null when none changed', async () => {
    const { service, passes } = setUp();
    passes.updatedFor.mockResolvedValueOnce({ serials: [pass.serialNumber], lastTag: '9' }).mockResolvedValueOnce({ serials: [], lastTag: null });
    await expect(service.updated({ device_library_identifier: 'dev-1', pass_type_identifier: config.passTypeIdentifier, passes_updated_since: '7' })).resolves.toEqual({ serialNumbers: [pass.serialNumber], lastUpdated: '9' });
    await expect(service.updated({ device_library_identifier: 'dev-1', pass_type_identifier: config.passTypeIdentifier })).resolves.toBeNull();
    await expect(service.updated({ device_library_identifier: 'dev-1', pass_type_identifier: 'pass.other' })).resolves.toBeNull();
    expect(passes.updatedFor).toHaveBeenCalledTimes(2);
  });
});

import { timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { AuditRecorder } from '@medfolio/audit-client';
import {
  DomainError,
  passFilename,
  WALLET_MESSAGES,
  type CallerIdentity,
  type PassKitLogDto,
  type PassKitPassDto,
  type PassKitPassReply,
  type PassKitRegisterReply,
  type PassKitRegistrationDto,
  type PassKitUpdatedDto,
  type PassKitUpdatedReply,
} from '@medfolio/contracts';
import { WalletConfig } from '../config';
import type { WalletPass } from '../entities';
import { PassBlobsRepository } from '../repositories/pass-blobs.repository';
import { PassesRepository } from '../repositories/passes.repository';
import { WalletService } from './wallet.service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The link a device is given to its latest pass: used at once. */
const DEVICE_LINK_SECONDS = 60;

/**
 * Apple's Wallet web service (PassKit): register and unregister a device for a pass, the serial
 * numbers changed since a tag, the latest pass (Last-Modified / If-Modified-Since), and the log.
 * A device proves it holds the pass with `Authorization: ApplePass <authenticationToken>`: an
 * unknown pass type or serial number is 404, a wrong or missing token 401, and so is every call for a
 * retired pass (its link was revoked): Wallet then stops asking, and nothing here ever makes a new
 * link for a pass. The patient issues a new pass, signed in.
 */
@Injectable()
export class PassKitService {
  private readonly logger = new Logger('PassKit');

  constructor(
    @Inject(WalletConfig) private readonly config: WalletConfig,
    @Inject(PassesRepository) private readonly passes: PassesRepository,
    @Inject(PassBlobsRepository) private readonly blobs: PassBlobsRepository,
    @Inject(WalletService) private readonly wallet: WalletService,
    @Inject(AuditRecorder) private readonly audit: AuditRecorder,
  ) {}

  async register(dto: PassKitRegistrationDto): Promise<PassKitRegisterReply> {
    const pass = await this.authorize(dto);
    if (!dto.push_token) throw new DomainError('VALIDATION_FAILED', 'pushToken is required.');
    const created = await this.passes.register(dto.device_library_identifier, pass.serialNumber, dto.push_token);
    return { status: created ? 201 : 200 };
  }

  async unregister(dto: PassKitRegistrationDto): Promise<Record<string, never>> {
    const pass = await this.authorize(dto);
    await this.passes.unregister(dto.device_library_identifier, pass.serialNumber);
    return {};
  }

  /** The device's passes changed since its tag; null (204) when none. */
  async updated(dto: PassKitUpdatedDto): Promise<PassKitUpdatedReply> {
    if (dto.pass_type_identifier !== this.config.passTypeIdentifier) return null;
    const { serials, lastTag } = await this.passes.updatedFor(dto.device_library_identifier, dto.passes_updated_since);
    return serials.length && lastTag ? { serialNumbers: serials, lastUpdated: lastTag } : null;
  }

  /** The latest version of this very pass (never another pass, never a new link), or "not modified". */
  async pass(dto: PassKitPassDto, caller: CallerIdentity): Promise<PassKitPassReply> {
    const authorized = await this.authorize(dto);
    const { pass, key } = await this.wallet.render(authorized, caller.correlationId, { mayMakeLink: false });
    const seconds = Math.floor(pass.updatedAt.getTime() / 1000);
    const lastModified = new Date(seconds * 1000).toUTCString();
    const since = dto.if_modified_since ? Date.parse(dto.if_modified_since) : NaN;
    if (!Number.isNaN(since) && seconds * 1000 <= since) return { not_modified: true, last_modified: lastModified };
    await this.audit.record(caller, { action: 'wallet.pass.device-fetch', entityType: 'wallet-pass', entityId: pass.serialNumber, patientId: pass.ownerId, outcome: 'success', policy: 'pass-token' });
    return { not_modified: false, last_modified: lastModified, url: await this.blobs.downloadUrl(key, passFilename(pass.ownerId), DEVICE_LINK_SECONDS) };
  }

  /** Wallet's error reports about this web service (no patient data in them; kept short). */
  log(dto: PassKitLogDto): Record<string, never> {
    for (const line of dto.logs.slice(0, 20)) this.logger.warn(`Wallet device log: ${line.replace(/[\r\n]+/g, ' ').slice(0, 500)}`);
    return {};
  }

  private async authorize(dto: PassKitPassDto): Promise<WalletPass> {
    const pass = dto.pass_type_identifier === this.config.passTypeIdentifier && UUID.test(dto.serial_number) ? await this.passes.bySerial(dto.serial_number) : null;
    if (!pass) throw new DomainError('NOT_FOUND', WALLET_MESSAGES.unknownPass);
    const given = Buffer.from(dto.authentication_token);
    const expected = Buffer.from(pass.authenticationToken);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new DomainError('UNAUTHENTICATED', WALLET_MESSAGES.wrongToken);
    if (pass.retiredAt) throw new DomainError('UNAUTHENTICATED', WALLET_MESSAGES.passRetired);
    return pass;
  }
}

import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { AuditRecorder } from '@medfolio/audit-client';
import {
  type AuthorizeReply,
  type CallerIdentity,
  type CompleteConnectionDto,
  CONNECTIONS_MESSAGES,
  type ConnectionView,
  type DeletedReply,
  DomainError,
  erasureCaller,
  RECORD_ERASED_ACTION,
  type EndpointView,
  type RecordErasedEvent,
  type SearchEndpointsDto,
  type StartConnectionDto,
} from '@medfolio/contracts';
import { ConnectionsConfig } from '../config';
import { type DirectoryEntry, searchDirectory } from '../directory/brands-directory';
import { Connection, PendingAuthorization } from '../entities';
import { ConnectionsRepository } from '../repositories/connections.repository';
import { EndpointDirectoryRepository } from '../repositories/endpoint-directory.repository';
import { type SmartConfiguration, SmartServerRefusal, SmartServerRepository } from '../repositories/smart-server.repository';
import { ClientAuthService } from './client-auth.service';
import { SyncService } from './sync.service';
import { TokenSealer } from './token-sealer';

/** What a patient-access connection asks for (SMART v2 scopes; v1 where the server speaks only v1). */
export const SCOPES_V2 = 'launch/patient openid fhirUser offline_access patient/*.rs';
export const SCOPES_V1 = 'launch/patient openid fhirUser offline_access patient/*.read';
const SEARCH_LIMIT = 50;
const DEFAULT_TOKEN_SECONDS = 3600;

/** The logic: the directory, starting and finishing a SMART standalone launch, listing and disconnecting. No I/O of its own. */
@Injectable()
export class ConnectionsService {
  private readonly logger = new Logger(ConnectionsService.name);

  constructor(
    @Inject(ConnectionsConfig) private readonly config: ConnectionsConfig,
    @Inject(ConnectionsRepository) private readonly connections: ConnectionsRepository,
    @Inject(EndpointDirectoryRepository) private readonly directory: EndpointDirectoryRepository,
    @Inject(SmartServerRepository) private readonly smart: SmartServerRepository,
    @Inject(TokenSealer) private readonly sealer: TokenSealer,
    @Inject(AuditRecorder) private readonly audit: AuditRecorder,
    @Inject(SyncService) private readonly syncs: SyncService,
    @Inject(ClientAuthService) private readonly clients: ClientAuthService,
  ) {}

  searchEndpoints(caller: CallerIdentity, dto: SearchEndpointsDto): EndpointView[] {
    requireUser(caller);
    return searchDirectory(this.directory.all(), dto.q, SEARCH_LIMIT).map(toEndpointView);
  }

  /**
   * Starts a standalone launch at a directory endpoint: discovery, PKCE S256, a state bound to the
   * caller (kept hashed, with the sealed verifier, for CONNECTIONS_AUTHORIZE_MINUTES), and the
   * authorization URL with `aud` = the endpoint's FHIR base.
   */
  async start(caller: CallerIdentity, dto: StartConnectionDto): Promise<AuthorizeReply> {
    const ownerId = requireUser(caller);
    const endpoint = this.directory.find(dto.endpoint_id);
    if (!endpoint) throw new DomainError('NOT_FOUND', CONNECTIONS_MESSAGES.unknownEndpoint);
    if ((await this.connections.countByOwner(ownerId)) >= this.config.perUserLimit) {
      throw new DomainError('CONFLICT', `You have ${this.config.perUserLimit} connections, the most one account may have. Disconnect one first.`);
    }
    const smart = await this.discover(endpoint);
    const state = randomBytes(32).toString('base64url');
    const verifier = randomBytes(32).toString('base64url');
    const stateHash = sha256(state).toString('hex');
    const pending = Object.assign(new PendingAuthorization(), {
      stateHash,
      ownerId,
      endpointId: endpoint.id,
      verifierSealed: this.sealer.seal('verifier', stateHash, verifier),
      redirectUri: this.config.callbackUrl,
      clientId: this.clients.registrationFor(endpoint.id).client_id,
      tokenEndpoint: smart.token_endpoint,
      revocationEndpoint: smart.revocation_endpoint ?? null,
      expiresAt: new Date(Date.now() + this.config.authorizeMinutes * 60_000),
    });
    await this.connections.addPending(pending);
    const url = new URL(smart.authorization_endpoint);
    const params = {
      response_type: 'code',
      client_id: pending.clientId,
      redirect_uri: pending.redirectUri,
      scope: smart.capabilities.includes('permission-v2') || !smart.capabilities.includes('permission-v1') ? SCOPES_V2 : SCOPES_V1,
      state,
      aud: endpoint.fhirBaseUrl,
      code_challenge: sha256(verifier).toString('base64url'),
      code_challenge_method: 'S256',
    };
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    await this.audit.record(caller, { action: 'connections.connection.start', entityType: 'connection', entityId: endpoint.id, patientId: ownerId, outcome: 'success', policy: 'owner' });
    return { authorize_url: url.toString() };
  }

  /** Finishes a launch the caller started: the state (once, unexpired), then the code exchange with the PKCE verifier. */
  async complete(caller: CallerIdentity, dto: CompleteConnectionDto): Promise<ConnectionView> {
    const ownerId = requireUser(caller);
    const pending = await this.connections.takePending(sha256(dto.state).toString('hex'), ownerId);
    if (!pending || pending.expiresAt.getTime() < Date.now()) throw new DomainError('VALIDATION_FAILED', CONNECTIONS_MESSAGES.unknownState);
    const endpoint = this.directory.find(pending.endpointId);
    if (!endpoint) throw new DomainError('NOT_FOUND', CONNECTIONS_MESSAGES.unknownEndpoint);
    if (dto.error || !dto.code) {
      await this.audit.record(caller, { action: 'connections.connection.create', entityType: 'connection', entityId: endpoint.id, patientId: ownerId, outcome: 'denied', policy: 'owner' });
      throw new DomainError('VALIDATION_FAILED', CONNECTIONS_MESSAGES.refused);
    }
    const verifier = this.sealer.open('verifier', pending.stateHash, pending.verifierSealed);
    let tokens;
    try {
      const client = await this.clients.form(endpoint.id, pending.clientId, pending.tokenEndpoint);
      tokens = await this.smart.token(pending.tokenEndpoint, { grant_type: 'authorization_code', code: dto.code, redirect_uri: pending.redirectUri, code_verifier: verifier, ...client });
    } catch (error) {
      if (error instanceof SmartServerRefusal && error.error === 'invalid_client') {
        this.logger.warn({ endpointId: endpoint.id }, "the token endpoint refused the product's client authentication");
        throw new DomainError('UNAVAILABLE', CONNECTIONS_MESSAGES.clientRefused);
      }
      if (error instanceof SmartServerRefusal) throw new DomainError('VALIDATION_FAILED', CONNECTIONS_MESSAGES.exchangeFailed);
      throw new DomainError('UNAVAILABLE', CONNECTIONS_MESSAGES.discoveryFailed);
    }
    if (tokens.token_type.toLowerCase() !== 'bearer') throw new DomainError('UNAVAILABLE', CONNECTIONS_MESSAGES.exchangeFailed);
    if (!tokens.patient) throw new DomainError('VALIDATION_FAILED', CONNECTIONS_MESSAGES.noPatient);
    const renewed = await this.renew(ownerId, endpoint.id, tokens, pending);
    if (renewed) {
      await this.audit.record(caller, { action: 'connections.connection.create', entityType: 'connection', entityId: renewed.id, patientId: ownerId, outcome: 'success', policy: 'owner' });
      this.syncs.start(renewed.id, caller);
      return this.toView({ ...renewed, syncState: 'syncing' });
    }
    const id = randomUUID();
    const connection = Object.assign(new Connection(), {
      id,
      ownerId,
      endpointId: endpoint.id,
      status: 'connected' as const,
      scope: tokens.scope ?? '',
      patientSealed: this.sealer.seal('patient', id, tokens.patient),
      accessTokenSealed: this.sealer.seal('access_token', id, tokens.access_token),
      refreshTokenSealed: tokens.refresh_token ? this.sealer.seal('refresh_token', id, tokens.refresh_token) : null,
      accessExpiresAt: new Date(Date.now() + (tokens.expires_in ?? DEFAULT_TOKEN_SECONDS) * 1000),
      tokenEndpoint: pending.tokenEndpoint,
      revocationEndpoint: pending.revocationEndpoint,
      clientId: pending.clientId,
      createdAt: new Date(),
      lastSyncAt: null,
      syncState: 'idle' as const,
      syncStartedAt: null,
      lastSyncError: null,
      syncCheckpoints: {},
      syncCounts: {},
      recordDocumentId: null,
      recordDocumentStale: false,
    });
    await this.connections.add(connection);
    await this.audit.record(caller, { action: 'connections.connection.create', entityType: 'connection', entityId: id, patientId: ownerId, outcome: 'success', policy: 'owner' });
    this.syncs.start(id, caller);
    return this.toView({ ...connection, syncState: 'syncing' });
  }

  /**
   * Reconnecting: a connection of the same user to the same endpoint and the same patient there gets
   * the new tokens in place (its id, fetched records, checkpoints and record document kept), rather
   * than a second connection beside the expired one. Another patient at the same hospital (a second
   * portal account) is a connection of its own.
   */
  private async renew(
    ownerId: string,
    endpointId: string,
    tokens: { access_token: string; refresh_token?: string; expires_in?: number; scope?: string; patient?: string },
    pending: { tokenEndpoint: string; revocationEndpoint: string | null; clientId: string },
  ): Promise<Connection | null> {
    const existing = (await this.connections.listForEndpoint(ownerId, endpointId)).find(
      (row) => this.sealer.open('patient', row.id, row.patientSealed) === tokens.patient,
    );
    if (!existing) return null;
    const renewed = Object.assign(existing, {
      status: 'connected' as const,
      scope: tokens.scope ?? '',
      accessTokenSealed: this.sealer.seal('access_token', existing.id, tokens.access_token),
      refreshTokenSealed: tokens.refresh_token ? this.sealer.seal('refresh_token', existing.id, tokens.refresh_token) : null,
      accessExpiresAt: new Date(Date.now() + (tokens.expires_in ?? DEFAULT_TOKEN_SECONDS) * 1000),
      tokenEndpoint: pending.tokenEndpoint,
      revocationEndpoint: pending.revocationEndpoint,
      clientId: pending.clientId,
      lastSyncError: null,
    });
    await this.connections.renewTokens(renewed);
    return renewed;
  }

  async list(caller: CallerIdentity): Promise<ConnectionView[]> {
    const ownerId = requireUser(caller);
    const rows = await this.connections.listByOwner(ownerId, this.config.perUserLimit);
    await this.audit.record(caller, { action: 'connections.connection.list', entityType: 'connection', patientId: ownerId, outcome: 'success', policy: 'owner' });
    return rows.map((row) => this.toView(row));
  }

  /**
   * Fetches the connection's records now, off the request path: answers the connection in state
   * 'syncing' at once (or as it is, when a sync already runs); the sync itself is audited when it ends.
   */
  async requestSync(caller: CallerIdentity, connectionId: string): Promise<ConnectionView> {
    const ownerId = requireUser(caller);
    const connection = await this.connections.findOwned(connectionId, ownerId);
    if (!connection) throw new DomainError('NOT_FOUND', CONNECTIONS_MESSAGES.notFound);
    if (connection.status !== 'connected') throw new DomainError('CONFLICT', CONNECTIONS_MESSAGES.notConnected);
    this.syncs.start(connection.id, caller);
    return this.toView({ ...connection, syncState: 'syncing' });
  }

  /** Disconnects: the grant revoked at the server where it offers revocation (best effort), then the row and its tokens deleted. */
  async remove(caller: CallerIdentity, connectionId: string): Promise<DeletedReply> {
    const ownerId = requireUser(caller);
    const connection = await this.connections.findOwned(connectionId, ownerId);
    if (!connection) throw new DomainError('NOT_FOUND', CONNECTIONS_MESSAGES.notFound);
    const revoked = await this.revokeAtSource(connection);
    await this.connections.remove(connection.id, ownerId);
    await this.audit.record(caller, { action: 'connections.connection.delete', entityType: 'connection', entityId: connection.id, patientId: ownerId, outcome: 'success', policy: 'owner' });
    return { deleted: true, revoked_at_source: revoked };
  }

  /**
   * identity.user.record-erased.v1: the connections service's part of erasing a record. Every
   * connection of the patient's is revoked at the hospital where it offers revocation (best effort,
   * as a disconnection), then the connections (their sealed tokens, the fetched resources with them)
   * and any started sign-in are deleted. Harmless to repeat: a redelivery finds nothing left.
   */
  async erase(event: RecordErasedEvent, correlationId: string): Promise<void> {
    const connections = await this.connections.allOwnedBy(event.patient_id);
    let revoked = 0;
    for (const connection of connections) {
      if (await this.revokeAtSource(connection).catch(() => false)) revoked += 1;
    }
    const deleted = await this.connections.deleteAllOf(event.patient_id);
    await this.audit.record(erasureCaller(event, correlationId), { action: RECORD_ERASED_ACTION, entityType: 'record', entityId: event.patient_id, patientId: event.patient_id, outcome: 'success' });
    this.logger.log({ connections: deleted.connections, pending: deleted.pending, revokedAtSource: revoked }, 'record erased');
  }

  /** Revokes the connection's grant at the server where it offers revocation (best effort): true when the server accepted. */
  private async revokeAtSource(connection: Connection): Promise<boolean> {
    if (!connection.revocationEndpoint) return false;
    const token = connection.refreshTokenSealed
      ? { token: this.sealer.open('refresh_token', connection.id, connection.refreshTokenSealed), token_type_hint: 'refresh_token' }
      : { token: this.sealer.open('access_token', connection.id, connection.accessTokenSealed), token_type_hint: 'access_token' };
    return this.smart.revoke(connection.revocationEndpoint, { ...token, ...(await this.clients.form(connection.endpointId, connection.clientId, connection.tokenEndpoint)) });
  }

  private async discover(endpoint: DirectoryEntry): Promise<SmartConfiguration> {
    try {
      const smart = await this.smart.discover(endpoint.fhirBaseUrl);
      if (smart.code_challenge_methods_supported.length > 0 && !smart.code_challenge_methods_supported.includes('S256')) throw new Error('no S256');
      return smart;
    } catch {
      throw new DomainError('UNAVAILABLE', CONNECTIONS_MESSAGES.discoveryFailed);
    }
  }

  private toView(row: Connection): ConnectionView {
    return {
      id: row.id,
      endpoint_id: row.endpointId,
      name: this.directory.find(row.endpointId)?.name ?? row.endpointId,
      status: row.status,
      scope: row.scope,
      connected_at: row.createdAt.toISOString(),
      last_sync_at: row.lastSyncAt?.toISOString() ?? null,
      sync_state: row.syncState,
      state_text: row.status === 'reconnect' ? CONNECTIONS_MESSAGES.reauthorize : row.syncState === 'syncing' ? 'Fetching records…' : row.lastSyncAt ? 'Connected' : 'Connected; records not fetched yet',
      last_error: row.status === 'reconnect' ? CONNECTIONS_MESSAGES.reauthorize : row.lastSyncError,
      counts: row.syncCounts ?? {},
    };
  }
}

/** The signed-in user, from the caller identity the gateway built from the verified token. */
function requireUser(caller: CallerIdentity): string {
  if (!caller.userId) throw new DomainError('UNAUTHENTICATED', 'Please sign in again.');
  return caller.userId;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function toEndpointView(entry: DirectoryEntry): EndpointView {
  return { id: entry.id, name: entry.name, aliases: entry.aliases, locations: entry.locations, portal: entry.portal };
}

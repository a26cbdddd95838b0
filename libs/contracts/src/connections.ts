import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import type { NoPayload, RpcShape } from './rpc-map';

/**
 * The connections service: the patient's links to hospitals and clinics over SMART on FHIR patient
 * access (SMART App Launch 2.x standalone launch). A directory of endpoints (User-access Brands),
 * the authorization (PKCE S256, a state bound to the signed-in user), the tokens sealed at rest,
 * disconnecting (the grant revoked at the server where it offers revocation).
 * Request/reply subjects: `connections.<entity>.<verb>`.
 */
export const CONNECTIONS_SUBJECTS = {
  /** Caller = the patient: SearchEndpointsDto → EndpointView[] (the directory, matching `q`). */
  searchEndpoints: 'connections.endpoint.search',
  /** Caller = the patient: StartConnectionDto → AuthorizeReply (where to send the browser). */
  start: 'connections.connection.start',
  /** Caller = the patient: CompleteConnectionDto (the redirect's query) → ConnectionView. */
  complete: 'connections.connection.complete',
  /** Caller = the patient: no payload → ConnectionView[] (newest first). */
  list: 'connections.connection.list',
  /** Caller = the patient: ConnectionIdDto → DeletedReply (404 for another user's id). */
  remove: 'connections.connection.delete',
  /** Caller = the patient: ConnectionIdDto → ConnectionView (state 'syncing'; the sync runs after the reply). */
  sync: 'connections.connection.sync',
  /** Anyone (EHRs): no payload → JwksReply (the public keys of the product's private_key_jwt client assertions). */
  jwks: 'connections.jwks.get',
} as const;

export const CONNECTIONS_MESSAGES = {
  unknownEndpoint: 'That hospital or clinic is not in the directory.',
  discoveryFailed: "The hospital's sign-in service could not be reached or did not describe itself. Please try again later.",
  unknownState: 'This sign-in was not started here, was already used, or has expired. Please start connecting again.',
  refused: 'The connection was not approved at the hospital or clinic.',
  exchangeFailed: "The hospital's sign-in service did not accept the sign-in. Please start connecting again.",
  clientRefused: "The hospital or clinic did not accept Medfolio's own registration with it (not your sign-in), so its records cannot be fetched now. We have been told; please try again later.",
  noPatient: "The hospital's sign-in service did not say whose record this is, so nothing was connected.",
  notFound: 'No such connection.',
  reauthorize: "The clinic's sign-in expired: reconnect.",
  notConnected: "This connection's sign-in expired: reconnect it before fetching records.",
  syncFailed: "The hospital's records service could not be read. We will try again later.",
  syncBusy: 'The hospital asked us to slow down. We will try again later.',
  syncRefused: 'The hospital refused to hand over these records.',
  offOrigin: "The hospital's records service pointed to another address for the rest of some records. For safety we only read from the hospital's own address, so some records may be missing; we will try again with the next fetch.",
  syncCapped: 'The record is larger than one fetch may read; the rest comes with the next fetches.',
  handoffFailed: 'The records were fetched but could not be added to your documents yet. We will try again with the next fetch.',
} as const;

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class SearchEndpointsDto {
  /** Words of the name, the brand or the city; empty: the whole directory (at most 50). */
  @IsOptional()
  @MaxLength(100, { message: 'q must be at most 100 characters' })
  @IsString({ message: 'q must be text' })
  @Transform(trim)
  q?: string;
}

export class StartConnectionDto {
  @Matches(/^[A-Za-z0-9.-]{1,64}$/, { message: 'endpoint_id must be the id of a directory entry' })
  @IsString({ message: 'endpoint_id is required' })
  endpoint_id!: string;
}

export class CompleteConnectionDto {
  @MaxLength(256, { message: 'state is not one this server made' })
  @IsNotEmpty({ message: 'state is required' })
  @IsString({ message: 'state is required' })
  state!: string;

  /** The authorization code (absent when the server answered an error). */
  @IsOptional()
  @MaxLength(4096, { message: 'code is too long' })
  @IsString({ message: 'code must be text' })
  code?: string;

  /** The authorization server's error (access_denied, …), when it refused. */
  @IsOptional()
  @MaxLength(200, { message: 'error is too long' })
  @IsString({ message: 'error must be text' })
  error?: string;
}

export class ConnectionIdDto {
  @IsUUID('all', { message: 'connection_id must be a connection id' })
  connection_id!: string;
}

/** One endpoint of the directory, as the "Connect a hospital or clinic" search shows it. */
export interface EndpointView {
  /** The directory's Endpoint id. */
  id: string;
  /** The organization or brand's name. */
  name: string;
  /** Other names it goes by. */
  aliases: string[];
  /** "City, ST" of its addresses. */
  locations: string[];
  /** The portal's or vendor's name shown beside it (the Endpoint's name), if any. */
  portal: string | null;
}

export interface AuthorizeReply {
  /** The hospital's authorization page, with the request's parameters: send the browser there. */
  authorize_url: string;
}

/**
 * A connection in plain words: 'connected', or 'reconnect' when the hospital's sign-in expired or
 * was revoked and the patient must connect again.
 */
export interface ConnectionView {
  id: string;
  endpoint_id: string;
  name: string;
  status: 'connected' | 'reconnect';
  /** The scopes the hospital granted. */
  scope: string;
  /** ISO 8601. */
  connected_at: string;
  /** ISO 8601, or null before the first sync. */
  last_sync_at: string | null;
  /** 'syncing' while records are being fetched. */
  sync_state: 'idle' | 'syncing';
  /** The state in plain words ("Connected", "Fetching records…", "The clinic's sign-in expired: reconnect."). */
  state_text: string;
  /** The last fetch's problem in plain words, or null. */
  last_error: string | null;
  /** Records kept from this connection, per FHIR resource type. */
  counts: Record<string, number>;
}

export interface DeletedReply {
  deleted: true;
  /** Whether the hospital's grant was revoked there (false: it offers no revocation, or did not answer). */
  revoked_at_source: boolean;
}

/** One public key of a JWK Set (RFC 7517): EC P-384 or RSA, never a private member. */
export interface PublicJwk {
  kty: 'EC' | 'RSA';
  /** The key's id, named in each assertion's header. */
  kid: string;
  alg: 'ES384' | 'RS384';
  use: 'sig';
  /** EC: the curve (P-384) and the point. */
  crv?: string;
  x?: string;
  y?: string;
  /** RSA: the modulus and exponent. */
  n?: string;
  e?: string;
}

/** The product's JWK Set for SMART confidential asymmetric clients (private_key_jwt): the current key first. */
export interface JwksReply {
  keys: PublicJwk[];
}

/** This service's part of the request/reply map (libs/contracts rpc-map.ts `RpcMap` extends it). */
export interface ConnectionsRpc {
  [CONNECTIONS_SUBJECTS.searchEndpoints]: RpcShape<SearchEndpointsDto, EndpointView[]>;
  [CONNECTIONS_SUBJECTS.start]: RpcShape<StartConnectionDto, AuthorizeReply>;
  [CONNECTIONS_SUBJECTS.complete]: RpcShape<CompleteConnectionDto, ConnectionView>;
  [CONNECTIONS_SUBJECTS.list]: RpcShape<NoPayload, ConnectionView[]>;
  [CONNECTIONS_SUBJECTS.remove]: RpcShape<ConnectionIdDto, DeletedReply>;
  [CONNECTIONS_SUBJECTS.sync]: RpcShape<ConnectionIdDto, ConnectionView>;
  [CONNECTIONS_SUBJECTS.jwks]: RpcShape<NoPayload, JwksReply>;
}

import { readFile } from 'node:fs/promises';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { ConnectionsConfig } from '../config';

/** How the product is registered with one endpoint's authorization server. */
export interface ClientRegistration {
  client_id: string;
  /** public: PKCE only; private_key_jwt: also a signed client assertion (SMART confidential asymmetric client). */
  auth: 'public' | 'private_key_jwt';
}

export class RegistrationsError extends Error {}

const MAX_FILE_BYTES = 4 * 1024 * 1024;
const CLIENT_ID = /^[\x21-\x7e]{1,200}$/;
const ENDPOINT_ID = /^[A-Za-z0-9.-]{1,64}$/;

/**
 * The client registrations per endpoint, from SMART_CLIENT_REGISTRATIONS_FILE (read once at start; a
 * bad file stops the start, naming the entry). An endpoint without one gets SMART_DEFAULT_CLIENT_ID as
 * a public client.
 */
@Injectable()
export class ClientRegistrationsRepository implements OnModuleInit {
  private registrations = new Map<string, ClientRegistration>();

  constructor(@Inject(ConnectionsConfig) private readonly config: ConnectionsConfig) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.clientRegistrationsFile) return;
    let text: string;
    try {
      text = await readFile(this.config.clientRegistrationsFile, 'utf8');
    } catch (error) {
      throw new RegistrationsError(`SMART_CLIENT_REGISTRATIONS_FILE cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    if (text.length > MAX_FILE_BYTES) throw new RegistrationsError('SMART_CLIENT_REGISTRATIONS_FILE is larger than 4 MB');
    this.registrations = parseRegistrations(text);
  }

  /** The endpoint's registration, or the default public client. */
  for(endpointId: string): ClientRegistration {
    return this.registrations.get(endpointId) ?? { client_id: this.config.defaultClientId, auth: 'public' };
  }

  /** Whether any registration signs client assertions (then a signing key is required). */
  usesPrivateKeyJwt(): boolean {
    return [...this.registrations.values()].some((r) => r.auth === 'private_key_jwt');
  }
}

/** `{"<endpoint id>": {"client_id": "…", "auth": "public" | "private_key_jwt"}}`, checked entry by entry. */
export function parseRegistrations(text: string): Map<string, ClientRegistration> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new RegistrationsError('SMART_CLIENT_REGISTRATIONS_FILE is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new RegistrationsError('SMART_CLIENT_REGISTRATIONS_FILE must be an object mapping endpoint ids to {"client_id", "auth"}');
  }
  const registrations = new Map<string, ClientRegistration>();
  for (const [endpointId, value] of Object.entries(parsed)) {
    const where = `SMART_CLIENT_REGISTRATIONS_FILE, "${endpointId.slice(0, 64)}"`;
    if (!ENDPOINT_ID.test(endpointId)) throw new RegistrationsError(`${where}: not an endpoint id (letters, digits, dots and dashes)`);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new RegistrationsError(`${where}: must be {"client_id", "auth"}`);
    const { client_id: clientId, auth = 'public' } = value as Record<string, unknown>;
    if (typeof clientId !== 'string' || !CLIENT_ID.test(clientId)) throw new RegistrationsError(`${where}: client_id must be printable characters without spaces`);
    if (auth !== 'public' && auth !== 'private_key_jwt') throw new RegistrationsError(`${where}: auth must be "public" or "private_key_jwt"`);
    registrations.set(endpointId, { client_id: clientId, auth });
  }
  return registrations;
}

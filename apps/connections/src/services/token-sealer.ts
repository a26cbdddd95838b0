import type { Envelope } from '@medfolio/security';

/** The fields sealed at rest, each bound to its row (a value copied to another row or field does not open). */
export type SealedField = 'access_token' | 'refresh_token' | 'patient' | 'verifier' | 'resource';

/** Seals and opens the connections' secrets with the service's envelope (AES-256-GCM, rotating keys). */
export class TokenSealer {
  constructor(private readonly envelope: Envelope) {}

  seal(field: SealedField, rowId: string, value: string): Buffer {
    return this.envelope.seal(value, context(field, rowId));
  }

  open(field: SealedField, rowId: string, sealed: Buffer): string {
    return this.envelope.openString(sealed, context(field, rowId));
  }
}

function context(field: SealedField, rowId: string): string {
  return `connections.${field}:${rowId}`;
}

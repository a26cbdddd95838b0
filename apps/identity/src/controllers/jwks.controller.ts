import { Controller, Get, Header, Inject } from '@nestjs/common';
import type { JSONWebKeySet } from 'jose';
import { publicJwks } from '@medfolio/security';
import { KeysRepository } from '../repositories/keys.repository';

/**
 * GET /.well-known/jwks.json on identity's own HTTP port (service mode): the public keys the gateway
 * verifies access tokens with (JWT_JWKS_URL). Every key of the ring is listed, so tokens signed
 * before a rotation stay valid until they expire.
 */
@Controller('.well-known')
export class JwksController {
  constructor(@Inject(KeysRepository) private readonly keys: KeysRepository) {}

  @Get('jwks.json')
  @Header('Cache-Control', 'public, max-age=300')
  async jwks(): Promise<JSONWebKeySet> {
    return publicJwks(await this.keys.signingKeys());
  }
}

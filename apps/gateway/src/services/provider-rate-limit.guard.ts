import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import { DomainError } from '@medfolio/contracts';
import { GatewayConfig } from '../config';
import type { AuthenticatedUser } from './jwt.strategy';

const WINDOW_MS = 60_000;

/**
 * Per-provider rate limit on the routes a provider's system calls: counted per account
 * (the verified token's subject), not per address, so one practice's many machines share one limit
 * and one provider cannot take another's. Runs after the JWT guard (a global guard would run before
 * the token is verified, and could only count by an unverified claim). Same storage as the
 * per-address limit (Redis when REDIS_URL is set).
 */
@Injectable()
export class ProviderRateLimitGuard implements CanActivate {
  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<{ user?: AuthenticatedUser }>();
    if (!req.user) return true;
    const limit = this.config.providerRateLimitPerMinute;
    const record = await this.storage.increment(`provider:${req.user.userId}`, WINDOW_MS, limit, 0, 'per-provider');
    if (record.totalHits > limit) {
      const retryAfter = Math.max(1, Math.ceil(record.timeToExpire));
      throw new DomainError('RATE_LIMITED', `Too many requests from this provider account. Please try again in ${retryAfter} seconds.`, { retry_after: [String(retryAfter)] });
    }
    return true;
  }
}

import type { ExecutionContext } from '@nestjs/common';
import { ThrottlerStorageService } from '@nestjs/throttler';
import { loadConfig } from '@medfolio/config';
import { GatewayConfig } from '../config';
import { ProviderRateLimitGuard } from './provider-rate-limit.guard';

const context = (userId?: string) =>
  ({ switchToHttp: () => ({ getRequest: () => (userId ? { user: { userId, roles: ['patient', 'provider'] } } : {}) }) }) as unknown as ExecutionContext;

describe('per-provider rate limit', () => {
  it('counts per account: the limit stops one provider, not another; Retry-After is given', async () => {
    const storage = new ThrottlerStorageService();
    const guard = new ProviderRateLimitGuard(storage, loadConfig(GatewayConfig, { PROVIDER_RATE_LIMIT_PER_MINUTE: '3' }));
    for (let i = 0; i < 3; i++) await expect(guard.canActivate(context('doctor-a'))).resolves.toBe(true);
    const refused = await guard.canActivate(context('doctor-a')).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'RATE_LIMITED', details: { retry_after: [expect.stringMatching(/^\d+$/)] } });
    await expect(guard.canActivate(context('doctor-b'))).resolves.toBe(true);
    // Unauthenticated requests never reach it (the JWT guard runs first); it lets them through untouched.
    await expect(guard.canActivate(context())).resolves.toBe(true);
    storage.onApplicationShutdown();
  });
});

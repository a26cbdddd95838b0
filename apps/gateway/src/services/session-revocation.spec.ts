import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { IDENTITY_SUBJECTS, STREAMS, type LogoutReply, type SessionsRevokedEvent } from '@medfolio/contracts';
import { loadConfig } from '@medfolio/config';
import { createRpcClient, InProcessBroker, InProcessEventBus, type RpcClient } from '@medfolio/messaging';
import { loadOrCreateSigningKeys, publicJwks, signAccessToken, type SigningKeyRing } from '@medfolio/security';
import { createGatewayApp } from '../bootstrap';
import { GatewayConfig } from '../config';

/**
 * Revoked sign-ins stop their access tokens at once (issue: logout left them working for 15 minutes).
 * The real gateway with its real token check; no services behind it, so an accepted token gets
 * 503/504 from the missing audit service and a refused one 401.
 */
describe('access tokens of revoked sign-ins', () => {
  let dataDir: string;
  let bus: InProcessEventBus;
  let rpc: RpcClient;
  let ring: SigningKeyRing;
  const apps: NestFastifyApplication[] = [];

  const revoke = (sessionIds: string[], revokedAt = new Date()) =>
    bus.publish(IDENTITY_SUBJECTS.sessionsRevoked, {
      user_id: 'u',
      session_ids: sessionIds,
      revoked_at: revokedAt.toISOString(),
      reason: 'logout',
    } satisfies SessionsRevokedEvent);

  async function gateway(): Promise<NestFastifyApplication> {
    const config = loadConfig(GatewayConfig, { DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEB_ROOT: dataDir });
    const app = await createGatewayApp({ config, rpc, eventBus: bus, localJwks: publicJwks(ring), webRoot: null });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    apps.push(app);
    return app;
  }

  const status = async (app: NestFastifyApplication, token: string) =>
    (await app.inject({ method: 'GET', url: '/api/history/', headers: { authorization: `Bearer ${token}` } })).statusCode;
  const tokenFor = (sid: string) => signAccessToken(ring.current, { sub: randomUUID(), roles: ['patient'], sid });

  beforeAll(async () => {
    Logger.overrideLogger(false);
    dataDir = await mkdtemp(path.join(tmpdir(), 'gateway-revocation-'));
    ring = await loadOrCreateSigningKeys(dataDir);
    bus = new InProcessEventBus();
    await bus.ensureStream({ ...STREAMS.IDENTITY, subjects: [...STREAMS.IDENTITY.subjects] });
    rpc = createRpcClient('gateway', { timeoutMs: 300 });
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    await rpc.close();
    await bus.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses a token as soon as its sign-in is revoked, on every gateway replica', async () => {
    const [one, two] = [await gateway(), await gateway()];
    const sid = randomUUID();
    const token = await tokenFor(sid);
    const other = await tokenFor(randomUUID());
    expect(await status(one, token)).not.toBe(401);
    await revoke([sid]);
    expect(await status(one, token)).toBe(401);
    expect(await status(two, token)).toBe(401);
    expect(await status(one, other)).not.toBe(401); // other sign-ins go on
  });

  it('a sign-out refuses the access token before its 200, on the gateway that served it (the event came 9-24 ms later)', async () => {
    const app = await gateway();
    const sid = randomUUID();
    const token = await tokenFor(sid);
    // identity as the gateway sees it: it revokes and names the sign-in; its event is not (yet) published.
    const calls: unknown[] = [];
    InProcessBroker.register(IDENTITY_SUBJECTS.logout, async (data) => {
      calls.push(data);
      return { message: 'You are signed out.', revoked_session_ids: [sid] } satisfies LogoutReply;
    });
    try {
      expect(await status(app, token)).not.toBe(401);
      const out = await app.inject({ method: 'POST', url: '/api/logout/', payload: {}, headers: { authorization: `Bearer ${token}` } });
      expect(out.statusCode).toBe(200);
      expect(out.json()).toEqual({ message: 'You are signed out.' }); // the sid is for the gateway only
      expect(await status(app, token)).toBe(401);
      expect(calls).toHaveLength(1);
    } finally {
      InProcessBroker.unregister(IDENTITY_SUBJECTS.logout);
    }
  });

  it('a password change or reset refuses the sign-ins it revoked before its 200, on the gateway that served it', async () => {
    const app = await gateway();
    const [mine, other, reset] = [randomUUID(), randomUUID(), randomUUID()];
    const [myToken, otherToken, resetToken] = await Promise.all([tokenFor(mine), tokenFor(other), tokenFor(reset)]);
    InProcessBroker.register(IDENTITY_SUBJECTS.changePassword, async () => ({ message: 'Password updated successfully', detail: 'Password updated successfully', revoked_session_ids: [other] }));
    InProcessBroker.register(IDENTITY_SUBJECTS.resetPassword, async () => ({ message: 'Your password has been reset.', revoked_session_ids: [reset] }));
    try {
      const changed = await app.inject({ method: 'PUT', url: '/api/change/password/', payload: { old_password: 'old password 1', new_password: 'new password 1' }, headers: { authorization: `Bearer ${myToken}` } });
      expect(changed.statusCode).toBe(200);
      expect(changed.json()).toEqual({ message: 'Password updated successfully', detail: 'Password updated successfully' });
      expect(await status(app, otherToken)).toBe(401);
      expect(await status(app, myToken)).not.toBe(401); // the sign-in that changed it stays
      const wasReset = await app.inject({ method: 'POST', url: '/api/reset-password/', payload: { email: 'a@example.com', password: 'new password 2', token: 'x'.repeat(43) } });
      expect(wasReset.statusCode).toBe(200);
      expect(wasReset.json()).toEqual({ message: 'Your password has been reset.' });
      expect(await status(app, resetToken)).toBe(401);
    } finally {
      InProcessBroker.unregister(IDENTITY_SUBJECTS.changePassword);
      InProcessBroker.unregister(IDENTITY_SUBJECTS.resetPassword);
    }
  });

  it('a gateway that starts later still knows revocations of the last hour, not older ones', async () => {
    const recent = randomUUID();
    const old = randomUUID();
    await revoke([recent], new Date(Date.now() - 30 * 60_000));
    await revoke([old], new Date(Date.now() - 2 * 3600_000));
    const late = await gateway();
    expect(await status(late, await tokenFor(recent))).toBe(401);
    expect(await status(late, await tokenFor(old))).not.toBe(401);
  });
});

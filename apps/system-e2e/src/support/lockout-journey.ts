import { randomUUID } from 'node:crypto';
import type { TokenPair } from '@medfolio/contracts';
import { call, codeFor, resetLinkFor, type Mailbox, type Reply } from './journey';

/** A call from a client address of its own (the product must trust one proxy hop: TRUST_PROXY_HOPS=1). */
function callFrom<T = unknown>(base: string, client: string, method: string, path: string, body?: unknown, token?: string): Promise<Reply<T>> {
  return call<T>(base, method, path, body, token, { 'x-forwarded-for': client });
}

/**
 * As the probe did it: 10 failed sign-ins from each of 10 addresses, then the owner's
 * right password from a new address gets a step-up (403 STEP_UP_REQUIRED and an e-mailed sign-in
 * code that signs in), not 429 for an hour; 100 bogus reset tokens, then the owner's genuine reset
 * link still works. The product's default limits (10 per account and client, 100 per account).
 */
export async function noLockoutJourney(base: string, mailbox: Mailbox): Promise<void> {
  const expectStatus = (reply: Reply, status: number, what: string) => {
    if (reply.status !== status) throw new Error(`${what}: expected ${status}, got ${reply.status} ${JSON.stringify(reply.body)}`);
  };
  const net = randomUUID().replace(/[^0-9]/g, '').padEnd(6, '7');
  const address = (a: number, b: number) => `10.${Number(net.slice(0, 2)) % 250}.${a}.${b}`;
  const email = `owner-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'correct horse battery';
  const home = address(200, 1);

  expectStatus(await callFrom(base, home, 'POST', '/api/register/', { first_name: 'Ana', last_name: '', phone: '+1 202 555 0143', email, password, date_of_birth: '1990-04-01' }), 201, 'register');
  const verified = await callFrom<TokenPair>(base, home, 'POST', '/api/verify-otp/', { email, otp: await codeFor(mailbox, email) });
  expectStatus(verified, 200, 'verify');
  const verificationCode = await codeFor(mailbox, email);

  for (let a = 0; a < 10; a += 1) {
    for (let i = 0; i < 10; i += 1) {
      const guess = await callFrom(base, address(a, 1), 'POST', '/api/login/', { email, password: `guess ${a}-${i}` });
      expectStatus(guess, 401, `guess ${a}-${i}`);
    }
  }
  // The attackers' addresses are stopped, whatever they send.
  expectStatus(await callFrom(base, address(0, 1), 'POST', '/api/login/', { email, password }), 429, 'an attacking address, even with the right password');
  // A new address: the same step-up for a wrong password and the right one; only the right one gets a code.
  const wrong = await callFrom<{ code: string }>(base, address(100, 1), 'POST', '/api/login/', { email, password: 'one more guess' });
  expectStatus(wrong, 403, 'a wrong password from a new address past the account-wide limit');
  const travel = address(100, 2);
  const stepUp = await callFrom<{ code: string; message: string }>(base, travel, 'POST', '/api/login/', { email, password });
  expectStatus(stepUp, 403, "the owner's right password from a new address (it answered 429 for an hour)");
  if (stepUp.body.code !== 'STEP_UP_REQUIRED' || wrong.body.code !== 'STEP_UP_REQUIRED') throw new Error(`step-up answers: ${JSON.stringify([wrong.body, stepUp.body])}`);
  const signInCode = await codeFor(mailbox, email, verificationCode);
  const signedIn = await callFrom<TokenPair>(base, travel, 'POST', '/api/verify-otp/', { email, otp: signInCode });
  expectStatus(signedIn, 200, 'the sign-in code');
  if (!signedIn.body.access || !signedIn.body.refresh) throw new Error(`the sign-in code gave no session: ${JSON.stringify(signedIn.body)}`);
  expectStatus(await callFrom(base, travel, 'GET', '/api/profile/', undefined, signedIn.body.access), 200, 'the profile after the step-up');
  expectStatus(await callFrom(base, travel, 'POST', '/api/login/', { email, password }), 200, 'the password alone from the address that proved itself');

  // 100 bogus reset tokens (10 addresses), then the genuine link from a new address.
  for (let a = 0; a < 10; a += 1) {
    for (let i = 0; i < 10; i += 1) {
      const bogus = await callFrom(base, address(a, 3), 'POST', '/api/reset-password/', { email, password: 'taken over 1234', token: `${randomUUID()}${randomUUID()}`.slice(0, 43) });
      if (bogus.status !== 400 && bogus.status !== 429) throw new Error(`bogus reset token: ${bogus.status} ${JSON.stringify(bogus.body)}`);
    }
  }
  const mailer = address(150, 1);
  expectStatus(await callFrom(base, mailer, 'POST', '/api/forgot-password/', { email }), 200, 'forgot password');
  const link = await resetLinkFor(mailbox, email);
  expectStatus(await callFrom(base, address(150, 2), 'POST', '/api/reset-password/', { email: link.email, token: link.token, password: 'reset pass 5678' }), 200, 'the genuine reset link after 100 bogus tokens (it answered 429)');
  expectStatus(await callFrom(base, address(150, 2), 'POST', '/api/login/', { email, password: 'reset pass 5678' }), 200, 'sign in after the reset');
}

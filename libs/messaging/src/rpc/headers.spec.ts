import type { CallerIdentity } from '@medfolio/contracts';
import { callerFromHeaders, callerHeaders } from './headers';

const read = (caller: unknown) => {
  const headers: Record<string, string> = { 'x-caller': JSON.stringify(caller), 'x-correlation-id': 'c' };
  return callerFromHeaders((name) => headers[name]);
};

describe('the caller in message headers', () => {
  it("carries a proxy's actor (who acted, with their role) beside the record's patient id", () => {
    const caller: CallerIdentity = { userId: 'leo', roles: ['patient'], correlationId: 'c', actor: { userId: 'ada', role: 'guardian' } };
    const headers = callerHeaders(caller);
    expect(callerFromHeaders((name) => headers[name])).toEqual(caller);
  });

  it('drops an actor that is not well formed', () => {
    expect(read({ userId: 'leo', roles: [], correlationId: 'c', actor: { userId: 'ada', role: 'owner' } }).actor).toBeUndefined();
    expect(read({ userId: 'leo', roles: [], correlationId: 'c', actor: { role: 'view' } }).actor).toBeUndefined();
    expect(read({ userId: 'leo', roles: [], correlationId: 'c' })).toEqual({ userId: 'leo', roles: [], correlationId: 'c' });
  });
});

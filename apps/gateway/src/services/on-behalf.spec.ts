import { DomainError, FAMILY_SERVICE_SUBJECTS, type CallerIdentity } from '@medfolio/contracts';
import type { RpcClient } from '@medfolio/messaging';
import { actOnBehalf, namedPatient, routeOf } from './on-behalf';

const ADA = '11111111-1111-4111-8111-111111111111';
const LEO = '22222222-2222-4222-8222-222222222222';
const caller: CallerIdentity = { userId: ADA, roles: ['patient'], correlationId: 'c' };

/** identity's answer over request/reply, as the test says. */
function identity(answer: () => Promise<unknown>) {
  const calls: { subject: string; data: unknown }[] = [];
  const rpc = { send: async (subject: string, data: unknown) => (calls.push({ subject, data }), answer()) } as unknown as RpcClient;
  return { rpc, calls };
}

describe('acting on another person\'s record', () => {
  it('reads the record from the header, else the patient query parameter', () => {
    expect(namedPatient({ headers: { 'x-patient-id': LEO } })).toBe(LEO);
    expect(namedPatient({ headers: {}, query: { patient: LEO } })).toBe(LEO);
    expect(namedPatient({ headers: { 'x-patient-id': ' ' } })).toBeUndefined();
  });

  it("forwards the caller as the record's patient with the actor when identity grants the role, asking at every request", async () => {
    const { rpc, calls } = identity(async () => ({ role: 'view', patient_first_name: 'Leo' }));
    const first = await actOnBehalf({ onBehalf: 'view', auth: 'bearer' }, LEO.toUpperCase(), caller, rpc);
    await actOnBehalf({ onBehalf: 'view', auth: 'bearer' }, LEO, caller, rpc);
    expect(first).toEqual({ ...caller, userId: LEO, actor: { userId: ADA, role: 'view' } });
    expect(calls).toEqual([
      { subject: FAMILY_SERVICE_SUBJECTS.access, data: { patient_id: LEO, needed: 'view' } },
      { subject: FAMILY_SERVICE_SUBJECTS.access, data: { patient_id: LEO, needed: 'view' } },
    ]);
  });

  it("passes identity's refusal on, and asks nothing for the caller's own id", async () => {
    const refused = identity(async () => Promise.reject(new DomainError('FORBIDDEN', 'You do not have access to this record.')));
    await expect(actOnBehalf({ onBehalf: 'manage', auth: 'bearer' }, LEO, caller, refused.rpc)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await actOnBehalf({ onBehalf: 'manage', auth: 'bearer' }, ADA, caller, refused.rpc)).toBe(caller);
  });

  it('refuses another record on signed-in-only routes that never act for someone else, and ignores it on open ones', async () => {
    const { rpc, calls } = identity(async () => ({ role: 'manage', patient_first_name: 'Leo' }));
    await expect(actOnBehalf({ auth: 'bearer' }, LEO, caller, rpc)).rejects.toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(/only for your own account/) });
    expect(await actOnBehalf({ auth: 'public' }, LEO, { roles: [], correlationId: 'c' }, rpc)).toEqual({ roles: [], correlationId: 'c' });
    await expect(actOnBehalf({ onBehalf: 'view', auth: 'bearer-if-sent' }, LEO, { roles: [], correlationId: 'c' }, rpc)).rejects.toMatchObject({ status: 401 });
    await expect(actOnBehalf({ onBehalf: 'view', auth: 'bearer' }, 'not-a-uuid', caller, rpc)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(calls).toHaveLength(0);
  });

  it("finds the hand-written controllers' routes in the table, trailing slash or not", () => {
    expect(routeOf('POST', '/api/upload/')?.onBehalf).toBe('manage');
    expect(routeOf('GET', '/api/trends/export.csv')?.onBehalf).toBe('view');
    expect(routeOf('POST', '/api/profile/picture')?.onBehalf).toBeUndefined();
    expect(routeOf('POST', '/api/profile/picture')?.path).toBe('/api/profile/picture/');
  });
});

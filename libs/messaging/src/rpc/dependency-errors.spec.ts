import { isDependencyUnavailable } from './dependency-errors';

describe('isDependencyUnavailable', () => {
  it('recognises a dependency that cannot be reached', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(isDependencyUnavailable(refused)).toBe(true);
    // PostgreSQL shutting down (57P01), starting up (57P03), a connection exception (08006)
    for (const code of ['57P01', '57P03', '08006']) expect(isDependencyUnavailable(Object.assign(new Error('x'), { code }))).toBe(true);
    // TypeORM's QueryFailedError wraps the driver's error; pg's pool says so in words
    expect(isDependencyUnavailable({ message: 'query failed', driverError: { code: '57P01' } })).toBe(true);
    expect(isDependencyUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDependencyUnavailable(new Error('failed', { cause: new Error('NATS is not connected') }))).toBe(true);
  });

  it('leaves every other error alone', () => {
    expect(isDependencyUnavailable(new Error('boom'))).toBe(false);
    // a unique violation, a syntax error: bugs or bad data, not an outage
    expect(isDependencyUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isDependencyUnavailable(Object.assign(new Error('syntax'), { code: '42601' }))).toBe(false);
    expect(isDependencyUnavailable(undefined)).toBe(false);
    expect(isDependencyUnavailable('ECONNREFUSED')).toBe(false);
  });
});

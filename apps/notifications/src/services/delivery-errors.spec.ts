import { describeDeliveryError, isPermanentRefusal, isServerUnreachable } from './delivery-errors';

const error = (fields: Record<string, unknown>) => Object.assign(new Error(String(fields['message'] ?? 'failed')), fields);

describe('delivery errors', () => {
  it('tells an unreachable server from a refusal', () => {
    expect(isServerUnreachable(error({ code: 'ECONNECTION' }))).toBe(true);
    expect(isServerUnreachable(error({ code: 'ETIMEDOUT' }))).toBe(true);
    expect(isServerUnreachable(error({ code: 'EENVELOPE', responseCode: 550 }))).toBe(false);
    expect(isServerUnreachable(new Error('no code'))).toBe(false);
    expect(isServerUnreachable(undefined)).toBe(false);
  });

  it('treats only a 5xx refusal of the message or recipient as permanent', () => {
    expect(isPermanentRefusal(error({ code: 'EENVELOPE', responseCode: 550 }))).toBe(true);
    expect(isPermanentRefusal(error({ code: 'EMESSAGE', responseCode: 552 }))).toBe(true);
    expect(isPermanentRefusal(error({ code: 'EENVELOPE', responseCode: 451 }))).toBe(false);
    expect(isPermanentRefusal(error({ code: 'EAUTH', responseCode: 535 }))).toBe(false);
    expect(isPermanentRefusal(error({ code: 'ECONNECTION' }))).toBe(false);
  });

  it('describes an error without the addresses servers quote', () => {
    const described = describeDeliveryError(
      error({ code: 'EENVELOPE', responseCode: 550, message: 'Recipient command failed: 550 5.1.1 <ada.lovelace@example.com>: no such user' }),
    );
    expect(described).toBe('EENVELOPE 550: Recipient command failed: 550 5.1.1 <<address>>: no such user');
    expect(describeDeliveryError(error({ code: 'ECONNECTION', message: 'x'.repeat(1000) }))).toHaveLength(500);
    expect(describeDeliveryError('plain text')).toBe('plain text');
  });
});

import { DomainError, ERROR_CODES, isErrorCode } from './errors';

describe('error contract', () => {
  it('recognises exactly the declared codes', () => {
    for (const code of ERROR_CODES) expect(isErrorCode(code)).toBe(true);
    expect(isErrorCode('TEAPOT')).toBe(false);
    expect(isErrorCode(404)).toBe(false);
  });

  it('serialises a DomainError to the payload that travels over request/reply', () => {
    expect(new DomainError('NOT_FOUND', 'Document not found').toPayload()).toEqual({ code: 'NOT_FOUND', message: 'Document not found' });
    expect(new DomainError('VALIDATION_FAILED', 'Bad', { email: ['Email is required'] }).toPayload()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Bad',
      details: { email: ['Email is required'] },
    });
  });
});

import { BadRequestException, NotFoundException, UnauthorizedException, type ArgumentsHost } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import { DomainError, ERROR_CODES } from '@medfolio/contracts';
import { errorCodeForStatus, httpStatusFor } from './http-errors';
import { HttpErrorFilter } from './http-exception.filter';

function reply() {
  const sent: { status?: number; body?: unknown } = {};
  const r = {
    status: (code: number) => ((sent.status = code), r),
    header: () => r,
    send: (body: unknown) => ((sent.body = body), r),
  };
  return { r, sent };
}

function filter(exception: unknown) {
  const { r, sent } = reply();
  const host = { switchToHttp: () => ({ getResponse: () => r }) } as unknown as ArgumentsHost;
  new HttpErrorFilter().catch(exception, host);
  return sent;
}

describe('HTTP error mapping', () => {
  it('maps every error code to a status and back', () => {
    for (const code of ERROR_CODES) {
      const status = httpStatusFor(code);
      expect(status).toBeGreaterThanOrEqual(400);
      if (code !== 'QUOTA_EXCEEDED' && code !== 'STEP_UP_REQUIRED') expect(errorCodeForStatus(status)).toBe(code);
    }
  });

  it('answers a DomainError with its status, message and code', () => {
    expect(filter(new DomainError('NOT_FOUND', 'Document not found'))).toEqual({
      status: 404,
      body: { message: 'Document not found', code: 'NOT_FOUND' },
    });
    expect(filter(new DomainError('UNAVAILABLE', 'Audit log unavailable'))).toMatchObject({ status: 503 });
  });

  it("replaces Nest's bare defaults with sentences and keeps specific messages", () => {
    expect(filter(new UnauthorizedException())).toEqual({
      status: 401,
      body: { message: 'Authentication credentials were not provided or are invalid.', code: 'UNAUTHENTICATED' },
    });
    expect(filter(new BadRequestException(['page_size must not be greater than 100']))).toEqual({
      status: 400,
      body: { message: 'page_size must not be greater than 100', code: 'VALIDATION_FAILED' },
    });
    expect(filter(new NotFoundException('Cannot GET /api/x'))).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(filter(new ThrottlerException())).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
  });

  it('never leaks an unexpected error', () => {
    const sent = filter(new Error('connection string postgres://secret@db failed'));
    expect(sent).toEqual({ status: 500, body: { message: 'Something went wrong on our side. Please try again later.', code: 'INTERNAL' } });
  });

  it("turns Fastify's body errors into client errors", () => {
    expect(filter(Object.assign(new Error('Body is too large'), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' }))).toEqual({
      status: 413,
      body: { message: 'The request is too large.', code: 'PAYLOAD_TOO_LARGE' },
    });
    expect(filter(Object.assign(new Error('Unexpected token'), { statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' }))).toMatchObject({
      body: { message: 'The request body is not valid JSON.' },
    });
  });
});

import { BadRequestException, type ArgumentMetadata, type ArgumentsHost } from '@nestjs/common';
import { lastValueFrom } from 'rxjs';
import { ContactMessageDto, type ErrorPayload } from '@medfolio/contracts';
import { createValidationPipe, RpcErrorFilter } from '@medfolio/messaging';

/** The contact form's checks as notifications runs them: the shared validation pipe, then the RPC error filter. */
async function submit(form: Record<string, unknown>): Promise<ErrorPayload | ContactMessageDto> {
  const pipe = createValidationPipe();
  const metadata: ArgumentMetadata = { type: 'body', metatype: ContactMessageDto };
  try {
    return (await pipe.transform(form, metadata)) as ContactMessageDto;
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    const host = { switchToRpc: () => ({ getContext: () => ({}) }) } as unknown as ArgumentsHost;
    return lastValueFrom(new RpcErrorFilter().catch(error, host)).catch((payload: ErrorPayload) => payload);
  }
}

const valid = { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', message: 'Please call me back.' };

describe('contact form validation (exact messages of the spec)', () => {
  it('accepts a complete form, trimmed, and drops unknown fields', async () => {
    await expect(submit({ ...valid, firstname: '  Ada ', admin: true })).resolves.toEqual({ ...valid });
  });

  it.each([
    ['firstname', undefined, 'Firstname is required'],
    ['firstname', '', 'Firstname is required'],
    ['firstname', '   ', 'Firstname is required'],
    ['firstname', 'x'.repeat(101), 'Limit exceeded (100 characters)'],
    ['lastname', undefined, 'Lastname is required'],
    ['lastname', '', 'Lastname is required'],
    ['lastname', 'x'.repeat(101), 'Limit exceeded (100 characters)'],
    ['email', undefined, 'Email is required'],
    ['email', '', 'Email is required'],
    ['email', 'not-an-address', 'Invalid email'],
    ['email', `${'x'.repeat(60)}@${'y'.repeat(40)}.com`, 'Limit exceeded (100 characters)'],
    ['message', undefined, 'Message is required'],
    ['message', ' ', 'Message is required'],
    ['message', 'x'.repeat(201), 'Limit exceeded (200 characters)'],
    ['firstname', 42, 'Firstname is required'],
  ])('%s = %p: "%s"', async (field, value, message) => {
    const form: Record<string, unknown> = { ...valid, [field]: value };
    if (value === undefined) delete form[field];
    await expect(submit(form)).resolves.toEqual({ code: 'VALIDATION_FAILED', message, details: { request: [message] } });
  });

  it('accepts the limits themselves (100 characters, a 200-character message)', async () => {
    const atLimit = { firstname: 'x'.repeat(100), lastname: 'y'.repeat(100), email: `${'a'.repeat(60)}@${'b'.repeat(35)}.com`, message: 'z'.repeat(200) };
    expect(atLimit.email).toHaveLength(100);
    await expect(submit(atLimit)).resolves.toEqual(atLimit);
  });

  it('reports the first field first when several are wrong', async () => {
    await expect(submit({})).resolves.toMatchObject({ code: 'VALIDATION_FAILED', message: 'Firstname is required' });
  });
});

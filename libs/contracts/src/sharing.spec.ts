import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { CreateShareLinkDto, UpdateShareLinkBodyDto } from './sharing';

function messages(type: new () => object, body: object): Record<string, string[]> {
  const errors = validateSync(plainToInstance(type, body));
  return Object.fromEntries(errors.map((e) => [e.property, Object.values(e.constraints ?? {})]));
}

const LABEL = 'label must be 1 to 60 characters.';
const PASSCODE = 'passcode must be 4 to 64 characters.';
const EXPIRES = 'expires_at must be an ISO 8601 date and time, or null.';

describe('share link bodies', () => {
  it('create needs a label; update may leave it out', () => {
    expect(messages(CreateShareLinkDto, {})).toEqual({ label: expect.arrayContaining([LABEL]) });
    expect(messages(CreateShareLinkDto, { label: 'For Dr Lee' })).toEqual({});
    expect(messages(UpdateShareLinkBodyDto, {})).toEqual({});
  });

  it.each([
    ['create', CreateShareLinkDto],
    ['update', UpdateShareLinkBodyDto],
  ] as const)('%s: the same rules for label, expiry, passcode and the switches', (_name, type) => {
    expect(messages(type, { label: '   ' })['label']).toContain(LABEL);
    expect(messages(type, { label: 'x'.repeat(61) })['label']).toContain(LABEL);
    expect(messages(type, { label: 'ok', expires_at: 'next week' })['expires_at']).toEqual([EXPIRES]);
    expect(messages(type, { label: 'ok', passcode: '123' })['passcode']).toEqual([PASSCODE]);
    expect(messages(type, { label: 'ok', notify_on_view: 'yes' })['notify_on_view']).toEqual(['notify_on_view must be true or false.']);
    expect(messages(type, { label: 'ok', providers_may_see_documents: 1 })['providers_may_see_documents']).toEqual(['providers_may_see_documents must be true or false.']);
    expect(messages(type, { label: 'ok', shl: 'on' })['shl']).toEqual(['shl must be true or false.']);
    // null: no expiry / no passcode (on update: removes them).
    expect(messages(type, { label: 'ok', expires_at: null, passcode: null })).toEqual({});
    expect(messages(type, { label: 'ok', expires_at: '2030-01-01T00:00:00Z', passcode: '2468', notify_on_view: true, shl: false })).toEqual({});
  });
});

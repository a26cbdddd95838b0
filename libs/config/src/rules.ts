import { IsInt, Matches, Max, Min } from 'class-validator';

function rules(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => decorators.forEach((decorate) => decorate(target, key));
}

/** An http(s) URL. */
export function HttpUrl(): PropertyDecorator {
  return Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' });
}

/** A whole number, at least `min` (and at most `max`), with messages that say so. */
export function WholeNumber(min: number, max?: number): PropertyDecorator {
  return rules(
    IsInt({ message: 'must be a whole number' }),
    Min(min, { message: `must be at least ${min}` }),
    ...(max === undefined ? [] : [Max(max, { message: `must be at most ${max}` })]),
  );
}

/** 32 bytes in base64 (43 characters and one '=' of padding), or a list "id:base64,id2:base64" of them, current first. */
const KEY_LIST = /^(?:[A-Za-z0-9_.-]{1,32}:)?[A-Za-z0-9+/]{43}=(?:\s*,\s*(?:[A-Za-z0-9_.-]{1,32}:)?[A-Za-z0-9+/]{43}=)*$/;

/** A 32-byte key in base64, or to rotate a list "new:base64,old:base64" of them (the first seals, all open). */
export function KeyList(message: string): PropertyDecorator {
  return Matches(KEY_LIST, { message });
}

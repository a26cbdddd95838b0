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

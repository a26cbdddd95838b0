import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

/** Several property decorators as one, applied in the order given. */
export function rules(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => decorators.forEach((decorate) => decorate(target, key));
}

/**
 * Several property decorators as one, applied as TypeScript applies them written one above the
 * other in this order: the last first. A field keeps the exact validation it had when its
 * decorators were written out (the same constraints, in the same order).
 */
export function stacked(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => [...decorators].reverse().forEach((decorate) => decorate(target, key));
}

/** A required string of 1 to `max` characters, with class-validator's own messages (event and internal payload fields). */
export function NonEmptyString(max: number): PropertyDecorator {
  return stacked(IsString(), IsNotEmpty(), MaxLength(max));
}

import 'reflect-metadata';

const ENV_KEY = Symbol('medfolio:env');

export interface EnvOptions {
  /** Never printed, not even in error messages (secrets, keys, passwords, URLs with credentials). */
  sensitive?: boolean;
}

export interface EnvBinding extends EnvOptions {
  property: string;
  variable: string;
}

/** Binds a config class property to an environment variable. Validate it with class-validator. */
export function Env(variable: string, options: EnvOptions = {}): PropertyDecorator {
  return (target, property) => {
    const bindings: EnvBinding[] = Reflect.getMetadata(ENV_KEY, target) ?? [];
    Reflect.defineMetadata(ENV_KEY, [...bindings, { property: String(property), variable, ...options }], target);
  };
}

export function envBindings(cls: new () => object): EnvBinding[] {
  const bindings: EnvBinding[] = [];
  // Walk the prototype chain so a service's config can extend the common one.
  for (let proto = cls.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const binding of (Reflect.getOwnMetadata(ENV_KEY, proto) ?? []) as EnvBinding[]) {
      if (!bindings.some((b) => b.property === binding.property)) bindings.push(binding);
    }
  }
  return bindings;
}

import 'reflect-metadata';

const ENV_KEY = Symbol('medfolio:env');

export interface EnvOptions {
  /** Never printed, not even in error messages (secrets, keys, passwords, URLs with credentials). */
  sensitive?: boolean;
  /**
   * A secret that service mode (MEDFOLIO_MODE=service: containers, the chart, compose) cannot start
   * without, nor with a published default (KNOWN_DEFAULT_SECRETS): one process (`npm start`) makes
   * its own, but generated keys in separate processes disagree and vanish with the container.
   * `when` narrows it to configs that use it (e.g. the URL signing key only with gateway downloads);
   * `how` tells the operator how to make one.
   */
  serviceSecret?: { how: string; when?: (config: object) => boolean };
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

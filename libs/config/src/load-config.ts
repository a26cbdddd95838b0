import { validateSync } from 'class-validator';
import { envBindings } from './env.decorator';

/** A configuration problem: the message names the variable and never contains its value. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * Reads a typed config class from environment variables and validates it.
 * Unset variables keep the class's default. Numbers and booleans are converted from text.
 * On the first problem it throws a ConfigError with one line naming the variable, e.g.
 *   "Invalid configuration: NATS_URL must be a URL address (value hidden)".
 */
export function loadConfig<T extends object>(cls: new () => T, env: NodeJS.ProcessEnv = process.env): T {
  const config = new cls();
  const bindings = envBindings(cls);
  for (const { property, variable } of bindings) {
    const text = env[variable];
    if (text === undefined || text === '') continue;
    (config as Record<string, unknown>)[property] = fromText(text, (config as Record<string, unknown>)[property]);
  }
  const errors = validateSync(config, { forbidUnknownValues: false });
  if (errors.length > 0) {
    const first = errors[0]!;
    const binding = bindings.find((b) => b.property === first.property);
    const variable = binding?.variable ?? first.property;
    // A wrong type says more than a range check on it ('eighty' is not a whole number at all).
    const constraints = first.constraints ?? {};
    const typeCheck = ['isInt', 'isNumber', 'isBoolean', 'isString'].find((k) => k in constraints);
    const constraint = (typeCheck ? constraints[typeCheck] : Object.values(constraints)[0]) ?? 'is invalid';
    // class-validator messages start with the property name; say the variable instead.
    const reason = constraint.startsWith(first.property) ? constraint.slice(first.property.length).trim() : constraint;
    const present = env[variable] !== undefined && env[variable] !== '';
    throw new ConfigError(`Invalid configuration: ${variable} ${reason}${present ? ' (value hidden)' : ' (not set)'}`);
  }
  if ((config as { mode?: unknown }).mode === 'service') refuseMissingOrDefaultSecrets(config, bindings);
  return config;
}

/**
 * Values published in this repository (docker/compose.yaml's former defaults, documentation
 * examples): whoever reads the repository knows them, so service mode refuses them.
 */
export const KNOWN_DEFAULT_SECRETS: readonly string[] = [
  'medfolio-dev-internal-api-token-change-me',
  'medfolio-dev-url-signing-key-change-me',
  'medfolio-dev-identity-secret-change-me',
  'bWVkZm9saW8tZGV2LW5vdGlmaWNhdGlvbnMta2V5ISE=',
  'medfolio-dev-secret',
];

/** A published default, or a placeholder ("change-me", "changeme", "replace-me"). */
export function isKnownDefaultSecret(value: string): boolean {
  // A key list ("id:base64,id2:base64") is refused when any of its keys is published.
  const entries = value.split(',').map((entry) => entry.trim());
  const keys = entries.map((entry) => entry.replace(/^[A-Za-z0-9_.-]{1,32}:(?=[A-Za-z0-9+/]{43}=$)/, ''));
  return [value.trim(), ...entries, ...keys].some((v) => KNOWN_DEFAULT_SECRETS.includes(v)) || /change[-_ ]?me|replace[-_ ]?me/i.test(value);
}

/** Service mode: every secret the config declares (serviceSecret) must be set, and not to a published default. */
function refuseMissingOrDefaultSecrets(config: object, bindings: ReturnType<typeof envBindings>): void {
  for (const { property, variable, serviceSecret } of bindings) {
    if (!serviceSecret || (serviceSecret.when && !serviceSecret.when(config))) continue;
    const value = (config as Record<string, unknown>)[property];
    if (typeof value !== 'string' || value.trim() === '') {
      throw new ConfigError(`Invalid configuration: ${variable} is required in service mode (MEDFOLIO_MODE=service): ${serviceSecret.how} (not set)`);
    }
    if (isKnownDefaultSecret(value)) {
      throw new ConfigError(`Invalid configuration: ${variable} is a published default or placeholder, refused in service mode: ${serviceSecret.how} (value hidden)`);
    }
  }
}

/** The config as a printable object: sensitive values masked. For start-up logs and /health. */
export function describeConfig<T extends object>(cls: new () => T, config: T): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { property, variable, sensitive } of envBindings(cls)) {
    const value = (config as Record<string, unknown>)[property];
    out[variable] = sensitive ? (value === undefined ? undefined : '***') : value;
  }
  return out;
}

/** Converts an environment variable's text to the type of the property's default value. */
function fromText(text: string, defaultValue: unknown): unknown {
  switch (typeof defaultValue) {
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : text;
    case 'boolean':
      if (/^(1|true|yes|on)$/i.test(text)) return true;
      if (/^(0|false|no|off)$/i.test(text)) return false;
      return text;
    case 'string':
    case 'undefined':
    case 'bigint':
    case 'object':
    case 'function':
    case 'symbol':
      return text;
  }
}

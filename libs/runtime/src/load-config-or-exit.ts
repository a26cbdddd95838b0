import { ConfigError, loadConfig } from '@medfolio/config';

/** Loads config or exits with one clear line naming the bad variable. */
export function loadConfigOrExit<C extends object>(cls: new () => C): C {
  try {
    return loadConfig(cls);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

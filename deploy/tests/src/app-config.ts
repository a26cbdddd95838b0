// The environment variables each application reads, taken from its config class
// (apps/<app>/src/config.ts) and the classes it extends in libs/config, so that the chart's
// environment can be checked against the code: a variable the chart sets that no config class
// declares is a typo or a leftover.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './tools';

/** Base config classes of libs/config and the file that declares each. */
const BASE_CLASSES: Record<string, string> = {
  CommonConfig: 'libs/config/src/common.config.ts',
  StorageAwareConfig: 'libs/config/src/storage.config.ts',
  InternalHttpConfig: 'libs/config/src/storage.config.ts',
};

function variablesOf(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return new Set();
  seen.add(file);
  const source = readFileSync(path.join(repoRoot, file), 'utf8');
  const names = new Set([...source.matchAll(/@Env\(\s*'([A-Z0-9_]+)'/g)].map((match) => match[1] ?? ''));
  for (const [, base = ''] of source.matchAll(/class \w+ extends (\w+)/g)) {
    const baseFile = BASE_CLASSES[base];
    if (baseFile) for (const name of variablesOf(baseFile, seen)) names.add(name);
  }
  return names;
}

/** The variables apps/<app>/src/config.ts (and its base classes) read; undefined while the app has no code. */
export function configVariables(app: string): Set<string> | undefined {
  const file = `apps/${app}/src/config.ts`;
  if (!existsSync(path.join(repoRoot, file))) return undefined;
  return variablesOf(file);
}

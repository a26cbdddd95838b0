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

/** Settings by concern: `BaseConfig` and the `With<Concern>(Base)` mixins, each declared once in this file. */
const CONCERNS_FILE = 'libs/config/src/concerns.ts';

const envNames = (text: string) => [...text.matchAll(/@Env\(\s*'([A-Z0-9_]+)'/g)].map((match) => match[1] ?? '');

/** The text of each exported class or function of concerns.ts, by name. */
function concernBlocks(): Map<string, string> {
  const source = readFileSync(path.join(repoRoot, CONCERNS_FILE), 'utf8');
  const starts = [...source.matchAll(/^export (?:class|function|interface|type|const) (\w+)/gm)];
  return new Map(starts.map((match, i) => [match[1] ?? '', source.slice(match.index, starts[i + 1]?.index ?? source.length)]));
}

/**
 * The variables a config file declares, and those of everything its classes extend: base classes
 * (`extends CommonConfig`) and concern mixins (`extends WithJwt(WithStorage(BaseConfig))`), the
 * mixins counted one by one so that an app is credited only with the concerns it composes.
 */
function variablesOf(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return new Set();
  seen.add(file);
  const source = readFileSync(path.join(repoRoot, file), 'utf8');
  const names = new Set(envNames(source));
  const concerns = concernBlocks();
  for (const [, clause = ''] of source.matchAll(/class \w+ extends ([^{]+)\{/g)) {
    for (const [ident = ''] of clause.matchAll(/\w+/g)) {
      const baseFile = BASE_CLASSES[ident];
      if (baseFile) for (const name of variablesOf(baseFile, seen)) names.add(name);
      const block = concerns.get(ident);
      if (block) for (const name of envNames(block)) names.add(name);
    }
  }
  return names;
}

/** The variables apps/<app>/src/config.ts (and its base classes) read; undefined while the app has no code. */
export function configVariables(app: string): Set<string> | undefined {
  const file = `apps/${app}/src/config.ts`;
  if (!existsSync(path.join(repoRoot, file))) return undefined;
  return variablesOf(file);
}

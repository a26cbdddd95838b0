// Finds the command-line tools the deployment tests run: helm and kube-score, pinned in
// libs/tooling/tools.d/k8s.sh. The pinned copies in the tools bin directory come first, then PATH; when
// one is missing everywhere, libs/tooling/install-tools.sh installs it (its last line is the bin dir).
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

export const repoRoot = path.resolve(__dirname, '../../..');

export const TOOL_NAMES = ['helm', 'kube-score'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];
export type Tools = Record<ToolName, string>;

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function toolsBinDir(): string {
  const base = process.env['MEDFOLIO_TOOLS_DIR'] ?? path.join(homedir(), '.cache', 'medfolio', 'tools');
  return path.join(base, 'bin');
}

function find(name: ToolName, extraDirs: string[]): string | undefined {
  const dirs = [...extraDirs, toolsBinDir(), ...(process.env['PATH'] ?? '').split(path.delimiter)];
  return dirs
    .filter(Boolean)
    .map((dir) => path.join(dir, name))
    .find(isExecutable);
}

function findAll(extraDirs: string[]): Partial<Tools> {
  const found: Partial<Tools> = {};
  for (const name of TOOL_NAMES) {
    const file = find(name, extraDirs);
    if (file) found[name] = file;
  }
  return found;
}

let cached: Tools | undefined;

/** Paths of helm and kube-score, installing them first if needed (a few minutes, once). */
export function tools(): Tools {
  if (cached) return cached;
  const fromSetup = { helm: process.env['MEDFOLIO_HELM'], 'kube-score': process.env['MEDFOLIO_KUBE_SCORE'] };
  if (
    fromSetup.helm &&
    fromSetup['kube-score'] &&
    isExecutable(fromSetup.helm) &&
    isExecutable(fromSetup['kube-score'])
  ) {
    cached = { helm: fromSetup.helm, 'kube-score': fromSetup['kube-score'] };
    return cached;
  }
  let found = findAll([]);
  if (TOOL_NAMES.some((name) => !found[name])) {
    const out = execFileSync('bash', [path.join(repoRoot, 'libs', 'tooling', 'install-tools.sh')], {
      cwd: repoRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const binDir = out.trim().split('\n').pop() ?? '';
    found = findAll([binDir]);
  }
  const missing = TOOL_NAMES.filter((name) => !found[name]);
  if (missing.length > 0) {
    throw new Error(`${missing.join(', ')} not found on PATH nor installed by libs/tooling/install-tools.sh (needs Go)`);
  }
  cached = found as Tools;
  return cached;
}

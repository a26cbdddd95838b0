// Validates rendered objects against the Kubernetes API schemas.
//
// The validator is the npm package kubernetes-models: JSON schemas generated from the Kubernetes
// OpenAPI document, compiled ahead of time into one validate function per kind, shipped in the
// package and therefore usable offline. (kubeconform, the usual alternative, downloads its schemas
// from GitHub at run time, which these machines cannot reach.) It checks types, required fields,
// enums and formats. Kubernetes' schemas allow unknown fields, so a misspelt field would pass;
// unknownFieldErrors closes that gap with the TypeScript interfaces of the same package: each
// object becomes an object literal typed as its kind, and the compiler's excess-property check
// reports every field the API does not define, at any depth (what kubeconform -strict does).
import path from 'node:path';
import ts from 'typescript';
import type { K8sObject } from './helm';
import { repoRoot } from './tools';

interface Validatable {
  validate(): void;
}
type ModelClass = new (data: unknown) => Validatable;

/** Messages of the schema violations of one object ([] when it is valid). */
export async function schemaErrors(object: K8sObject): Promise<string[]> {
  const where = `${object.kind}/${object.metadata?.name ?? '?'}`;
  let module: Record<string, unknown>;
  try {
    module = (await import(`kubernetes-models/${object.apiVersion}/${object.kind}`)) as Record<string, unknown>;
  } catch {
    return [`${where}: unknown apiVersion/kind ${object.apiVersion} ${object.kind}`];
  }
  const Model = module[object.kind] as ModelClass | undefined;
  if (!Model) return [`${where}: kubernetes-models has no ${object.kind} in ${object.apiVersion}`];
  try {
    new Model(object).validate();
    return [];
  } catch (error) {
    return [`${where}: ${(error as Error).message}`];
  }
}

/**
 * Fields of the objects that their kind's API type does not have (and other type errors), as
 * "Kind/name: message". One compiler run for all objects.
 */
export function unknownFieldErrors(objects: K8sObject[]): string[] {
  // A file that exists only in memory, placed in the repository so that kubernetes-models resolves.
  const file = path.join(repoRoot, 'deploy', 'tests', '__generated__', 'manifests.ts');
  const lines = objects.map((object, index) => {
    const type = `import('kubernetes-models/${object.apiVersion}/${object.kind}', { with: { 'resolution-mode': 'import' } }).I${object.kind}`;
    return `export const object${index}: ${type} = ${JSON.stringify(object)};`;
  });
  const source = `${lines.join('\n')}\n`;
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, version, ...rest) =>
    name === file ? ts.createSourceFile(name, source, version) : getSourceFile.call(host, name, version, ...rest);
  host.fileExists = (name) => name === file || fileExists.call(host, name);
  host.readFile = (name) => (name === file ? source : readFile.call(host, name));
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    if (diagnostic.file?.fileName !== file || diagnostic.start === undefined) return message;
    const line = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line;
    const object = objects[line];
    return `${object ? `${object.kind}/${object.metadata.name}` : `line ${line + 1}`}: ${message}`;
  });
}

/**
 * `npm run api:generate`: everything the route table (libs/contracts/src/routes) makes.
 *
 * 1. libs/contracts/src/routes/api-schemas.json: JSON Schemas of the reply shapes (`ApiShapes`)
 *    and of the request DTO classes the routes name, generated from their TypeScript types by
 *    ts-json-schema-generator (JSDoc comments become descriptions).
 * 2. docs/api/openapi.json: the OpenAPI 3.1 document (libs/contracts/src/routes/openapi.ts).
 * 3. docs/api/reference.md: the API reference, one line per endpoint.
 * 4. apps/web/src/api/generated.ts: the web app's RTK Query endpoints, typed with the contracts'
 *    own types (type-only imports: nothing of the contracts ships in the web bundle).
 *
 * `--check` writes nothing and fails when a committed file is not what the table makes
 * (libs/tooling/api/generate.spec.ts runs it in CI).
 */
import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createGenerator, type Config } from 'ts-json-schema-generator';
import * as prettier from 'prettier';

const root = path.resolve(__dirname, '../../..');
const check = process.argv.includes('--check');
const SCHEMAS_FILE = 'libs/contracts/src/routes/api-schemas.json';
const OPENAPI_FILE = 'docs/api/openapi.json';
const REFERENCE_FILE = 'docs/api/reference.md';
const CLIENT_FILE = 'apps/web/src/api/generated.ts';

type Json = Record<string, unknown>;
interface Route {
  method: string;
  path: string;
  tag: string;
  summary: string;
  auth: string;
  rateLimit: string;
  params?: Record<string, unknown>;
  query?: { name: string };
  body?: { name: string };
  bodyOptional?: boolean;
  rawBody?: { type: string; schema: Json };
  reply: { status: number; shape?: string; media?: { type: string; schema?: string } };
  internal?: boolean;
}

/** JSON Schemas of ApiShapes and of the named DTO classes, with references made OpenAPI's. */
function generateSchemas(dtoNames: string[]): Record<string, Json> {
  const base: Config = {
    tsconfig: path.join(root, 'tsconfig.base.json'),
    expose: 'export',
    topRef: true,
    jsDoc: 'extended',
    skipTypeCheck: true,
    additionalProperties: false,
    sortProps: true,
  };
  const definitions: Record<string, Json> = {};
  const shapes = createGenerator({ ...base, path: path.join(root, 'libs/contracts/src/routes/shapes.ts'), type: 'ApiShapes' }).createSchema('ApiShapes');
  Object.assign(definitions, shapes.definitions);
  const dtos = createGenerator({ ...base, path: path.join(root, 'libs/contracts/src/index.ts') });
  for (const name of dtoNames) Object.assign(definitions, dtos.createSchema(name).definitions);
  delete definitions['ApiShapes'];
  const text = JSON.stringify(definitions).replace(/"#\/definitions\/([^"]+)"/g, (_m, name: string) => `"#/components/schemas/${decodeURIComponent(name)}"`);
  return JSON.parse(text) as Record<string, Json>;
}

/** A multipart body's fields as a type (the web app builds the FormData): files are Blobs. */
function formFields(schema: Json): string {
  const properties = (schema['properties'] ?? {}) as Record<string, Json>;
  const fields = Object.entries(properties).map(([name, property]) => `${name}: ${property['type'] === 'array' ? 'Blob[]' : property['format'] === 'binary' ? 'Blob' : 'string'}`);
  return fields.length ? `{ ${fields.join('; ')} }` : 'Record<string, unknown>';
}

const pascal = (id: string) => id.replace(/^./, (c) => c.toUpperCase());
const shapeType = (shape: string) => (shape.endsWith('[]') ? `ApiShapes['${shape.slice(0, -2)}'][]` : `ApiShapes['${shape}']`);

/** The web client: one endpoint per route the web app calls, typed from the contracts. */
function webClient(routes: Record<string, Route>): string {
  const imports = new Set<string>(['ApiShapes']);
  const tags = new Set<string>();
  const endpoints: string[] = [];
  const types: string[] = [];
  const hooks: string[] = [];
  for (const [id, route] of Object.entries(routes)) {
    if (route.internal) continue;
    tags.add(route.tag);
    const isQuery = route.method === 'GET';
    const name = pascal(id);
    const binary = route.reply.media?.schema === 'binary';
    const text = route.reply.media && !route.reply.media.schema;
    const response = binary ? 'Blob' : text ? 'string' : route.reply.shape ? shapeType(route.reply.shape) : 'void';
    const argParts: string[] = [];
    const params = Object.keys(route.params ?? {});
    if (params.length) argParts.push(`{ ${params.map((p) => `${p}: string`).join('; ')} }`);
    if (route.query) {
      imports.add(route.query.name);
      argParts.push(route.query.name);
    }
    if (route.body) {
      imports.add(route.body.name);
      argParts.push(`{ body${route.bodyOptional ? '?' : ''}: ${route.body.name} }`);
    }
    if (route.rawBody) argParts.push(`{ body: ${formFields(route.rawBody.schema)} }`);
    const arg = argParts.length ? argParts.join(' & ') : 'void';
    types.push(`export type ${name}ApiResponse = ${response};`, `export type ${name}ApiArg = ${arg};`);
    const url = route.path.replace(/\{(\w+)\}/g, (_m, p: string) => `\${encodeURIComponent(queryArg.${p})}`);
    const usesArg = arg !== 'void';
    const request = [`url: \`${url}\``];
    if (route.method !== 'GET') request.push(`method: '${route.method}'`);
    if (route.query) {
      const exclude = params.length ? `, ${params.join(', ')}` : '';
      request.push(exclude ? `params: omit(queryArg, [${params.map((p) => `'${p}'`).join(', ')}])` : 'params: queryArg');
    }
    if (route.body || route.rawBody) request.push('body: queryArg.body');
    if (binary) request.push('responseHandler: (response: Response) => response.blob()');
    if (text) request.push("responseHandler: 'text'");
    endpoints.push(
      `${id}: build.${isQuery ? 'query' : 'mutation'}<${name}ApiResponse, ${name}ApiArg>({`,
      `  query: (${usesArg ? 'queryArg' : ''}) => ({ ${request.join(', ')} }),`,
      `  ${isQuery ? 'providesTags' : 'invalidatesTags'}: ['${route.tag}'],`,
      '}),',
    );
    hooks.push(`use${name}${isQuery ? 'Query' : 'Mutation'}`);
  }
  const needsOmit = endpoints.some((line) => line.includes('omit('));
  return [
    '/* Generated by npm run api:generate from the route table (libs/contracts/src/routes): do not edit. */',
    `import type { ${[...imports].sort().join(', ')} } from '@medfolio/contracts';`,
    "import { emptyApi as api } from './empty-api';",
    '',
    ...(needsOmit
      ? [
          'function omit<T extends object, K extends keyof T>(value: T, keys: K[]): Omit<T, K> {',
          '  return Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key as K))) as Omit<T, K>;',
          '}',
          '',
        ]
      : []),
    `export const addTagTypes = [${[...tags].map((t) => `'${t}'`).join(', ')}] as const;`,
    'const injectedRtkApi = api.enhanceEndpoints({ addTagTypes }).injectEndpoints({',
    '  endpoints: (build) => ({',
    ...endpoints,
    '  }),',
    '  overrideExisting: false,',
    '});',
    'export { injectedRtkApi as medfolioApi };',
    ...types,
    `export const { ${hooks.join(', ')} } = injectedRtkApi;`,
    '',
  ].join('\n');
}

const AUTH_WORDS: Record<string, string> = {
  public: 'anyone',
  bearer: 'signed in',
  'bearer-if-sent': 'anyone (a token sent must be valid)',
  'bearer-optional': 'anyone',
  'apple-pass': 'Apple Wallet (ApplePass token)',
  'stripe-signature': 'Stripe (signed)',
  'local-dev': 'local, with the dev key',
};

/** The API reference: one table per tag, from the same table. */
function reference(routes: Record<string, Route>): string {
  const byTag = new Map<string, [string, Route][]>();
  for (const entry of Object.entries(routes)) byTag.set(entry[1].tag, [...(byTag.get(entry[1].tag) ?? []), entry]);
  const lines = [
    '# API reference',
    '',
    'Generated by `npm run api:generate` from the route table in `libs/contracts/src/routes`: do not edit. The full document, with every',
    'status each route answers and every shape, is [openapi.json](openapi.json) (OpenAPI 3.1); a running gateway serves it at `/api/docs-json`',
    'and as a browsable page at `/api/docs`.',
    '',
  ];
  for (const [tag, entries] of byTag) {
    lines.push(`## ${tag}`, '', '| Method and path | Who | Limit | Answers | What it does |', '| --- | --- | --- | --- | --- |');
    for (const [, route] of entries) {
      const answers = route.reply.shape ?? route.reply.media?.type ?? '—';
      lines.push(`| \`${route.method} ${route.path}\` | ${AUTH_WORDS[route.auth] ?? route.auth} | ${route.rateLimit} | ${route.reply.status} ${answers} | ${route.summary.replace(/\|/g, '\\|')} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

async function formatted(file: string, text: string): Promise<string> {
  const options = (await prettier.resolveConfig(path.join(root, file))) ?? {};
  return prettier.format(text, { ...options, filepath: path.join(root, file) });
}

async function main(): Promise<void> {
  // The table is loaded after the schemas are written (its index re-exports them).
  const { API_ROUTES, buildOpenApiDocument } = require('@medfolio/contracts') as { API_ROUTES: Record<string, Route>; buildOpenApiDocument(routes: unknown, schemas: unknown): unknown };
  const dtoNames = [...new Set(Object.values(API_ROUTES).flatMap((r) => [r.body?.name, r.query?.name]).filter((n): n is string => Boolean(n)))].sort();
  const schemas = generateSchemas(dtoNames);
  const document = buildOpenApiDocument(API_ROUTES, schemas);
  const outputs: [string, string][] = [
    [SCHEMAS_FILE, `${JSON.stringify(schemas, null, 2)}\n`],
    [OPENAPI_FILE, `${JSON.stringify(document, null, 2)}\n`],
    [REFERENCE_FILE, await formatted(REFERENCE_FILE, reference(API_ROUTES))],
    [CLIENT_FILE, await formatted(CLIENT_FILE, webClient(API_ROUTES))],
  ];
  let stale = 0;
  for (const [file, text] of outputs) {
    const target = path.join(root, file);
    let current = '';
    try {
      current = readFileSync(target, 'utf8');
    } catch {
      // a new file
    }
    if (current === text) continue;
    if (check) {
      stale++;
      console.error(`${file} is not what the route table makes: run npm run api:generate`);
    } else {
      writeFileSync(target, text);
      console.log(`wrote ${file}`);
    }
  }
  if (!check) console.log(`${Object.keys(API_ROUTES).length} routes, ${Object.keys(schemas).length} schemas`);
  if (stale) process.exit(1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

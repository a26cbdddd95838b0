import { readFileSync } from 'node:fs';
import path from 'node:path';
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { OpenAPIBackend, type Document } from 'openapi-backend';

/**
 * The API document checked against what the product really answers: every /api response a system
 * test receives is matched to its operation in docs/api/openapi.json (made from the route table)
 * and validated by openapi-backend's response validator (Ajv): the status must be one the
 * operation documents, the media type one it declares, and a JSON body must fit the schema of that
 * status. Installed for every system test file (conformance.setup.ts); a file with a violation fails.
 */

const DOCUMENT = path.resolve(__dirname, '../../../../docs/api/openapi.json');
/** Paths the gateway serves that are not API operations: the document itself and signed file links. */
const NOT_OPERATIONS = /^\/api\/(docs|files\/|health\/(live|ready))/;

export interface ConformanceReport {
  checked: number;
  violations: string[];
}

const report: ConformanceReport = { checked: 0, violations: [] };
let api: OpenAPIBackend | undefined;

async function backend(): Promise<OpenAPIBackend> {
  if (!api) {
    // quick: the definition is OpenAPI 3.1 (Redocly and Spectral lint it) and openapi-backend's own
    // definition check knows 3.0 only; so its references are resolved here first.
    const definition = (await $RefParser.dereference(JSON.parse(readFileSync(DOCUMENT, 'utf8')) as object)) as Document;
    api = new OpenAPIBackend({ definition, strict: false, validate: true, quick: true, ignoreTrailingSlashes: false });
    await api.init();
  }
  return api;
}

function methodOf(input: Parameters<typeof fetch>[0], init?: RequestInit): string {
  if (init?.method) return init.method.toUpperCase();
  if (typeof input === 'object' && 'method' in input) return input.method.toUpperCase();
  return 'GET';
}

function urlOf(input: Parameters<typeof fetch>[0]): URL {
  return new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
}

async function check(method: string, url: URL, response: Response): Promise<void> {
  if (!url.pathname.startsWith('/api/') || NOT_OPERATIONS.test(url.pathname) || method === 'OPTIONS' || method === 'HEAD') return;
  const openapi = await backend();
  const request = { method, path: url.pathname, query: url.search.slice(1), headers: {} };
  const operation = openapi.matchOperation(request) ?? openapi.matchOperation({ ...request, path: `${url.pathname}/` });
  const where = `${method} ${url.pathname} → ${response.status}`;
  if (!operation) {
    // A path that is not the API's answers 404 (or 405): only a path the gateway serves is a gap.
    if (response.status !== 404 && response.status !== 405) report.violations.push(`${where}: the document has no such operation`);
    return;
  }
  report.checked++;
  const documented = (operation.responses ?? {}) as Record<string, { content?: Record<string, unknown> }>;
  const answer = documented[String(response.status)];
  if (!answer) {
    report.violations.push(`${where}: status not documented for ${operation.operationId} (documented: ${Object.keys(documented).join(', ')})`);
    return;
  }
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const declared = Object.keys(answer.content ?? {});
  if (declared.length === 0) return;
  if (!declared.includes(mediaType)) {
    report.violations.push(`${where}: content-type ${mediaType || '(none)'} not declared (${declared.join(', ')})`);
    return;
  }
  if (!/json$/.test(mediaType)) return;
  const body: unknown = await response.clone().json().catch(() => undefined);
  const result = openapi.validateResponse(body, operation, response.status);
  if (!result.valid) {
    const errors = (result.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim());
    report.violations.push(`${where}: body does not fit the schema: ${errors.join('; ')}`);
  }
}

/** Wraps the test process's fetch so that each /api response is checked; returns the report. */
export function installConformanceCheck(): ConformanceReport {
  const original = globalThis.fetch;
  if ((original as { conformance?: boolean }).conformance) return report;
  const checked = async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
    const response = await original(input, init);
    await check(methodOf(input, init), urlOf(input), response).catch((error: unknown) => report.violations.push(`${methodOf(input, init)} ${urlOf(input).pathname}: ${String(error)}`));
    return response;
  };
  globalThis.fetch = Object.assign(checked, { conformance: true }) as unknown as typeof fetch;
  return report;
}

import { createHash, randomUUID } from 'node:crypto';
import type { DocumentListItem, DownloadLinkReply } from '@medfolio/contracts';
import { documentFiles } from '@medfolio/testing';
import { call } from './journey';
import type { Patient } from './fault-rig';
import type { OwnPostgres } from './fault-rig';

export type Operation = 'signin' | 'list' | 'upload' | 'delete';

/** One request of the load and what came back. `at` and `ms` in ms (Date.now() clock). */
export interface Outcome {
  op: Operation;
  patient: number;
  at: number;
  ms: number;
  /** HTTP status; 0 when no answer came (refused connection, reset, or the client's time-out). */
  status: number;
  code?: string;
  message?: string;
  correlationId?: string;
  documentId?: string;
  sha256?: string;
  error?: string;
}

const OPERATIONS: Operation[] = ['signin', 'list', 'upload', 'list'];
const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/**
 * A small load generator: sign-ins, document lists and uploads for a few patients, started at a
 * fixed rate (open loop, so a slow answer does not slow the load), each with a client time-out.
 */
export class MixedLoad {
  readonly outcomes: Outcome[] = [];
  private timer?: NodeJS.Timeout;
  private readonly inFlight = new Set<Promise<void>>();
  private next = 0;

  /**
   * Documents the load deleted (answered 2xx), or asked to delete and got no answer (the client's
   * time-out or a reset: the server may have done it): no longer expected in the lists.
   */
  readonly deleted = new Set<string>();
  private readonly kept = new Map<number, string[]>();

  /**
   * `keepPerPatient`: after each upload, delete a patient's oldest upload beyond this many, so the
   * data stays the same size and only a leak can grow a process (the soak); unset, nothing is deleted.
   */
  constructor(
    private readonly base: string,
    readonly patients: Patient[],
    private readonly options: { perSecond: number; timeoutMs: number; keepPerPatient?: number },
  ) {}

  get pending(): number {
    return this.inFlight.size;
  }

  start(): void {
    this.timer = setInterval(() => {
      const op = OPERATIONS[this.next % OPERATIONS.length]!;
      const patient = this.next % this.patients.length;
      this.next += 1;
      const run = this.run(op, patient).finally(() => this.inFlight.delete(run));
      this.inFlight.add(run);
    }, 1000 / this.options.perSecond);
  }

  /**
   * Stops starting requests and waits for the ones under way (each ends by its time-out at worst).
   * Loops: an upload that finishes while we wait may start a delete (see keep()), which must be
   * awaited too, or the checks run while it is still changing the patient's list.
   */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  since(at: number, until = Infinity): Outcome[] {
    return this.outcomes.filter((o) => o.at >= at && o.at < until);
  }

  private keep(index: number, documentId: string): void {
    const ids = this.kept.get(index) ?? [];
    ids.push(documentId);
    this.kept.set(index, ids);
    if (ids.length <= this.options.keepPerPatient!) return;
    const oldest = ids.shift()!;
    const run = this.run('delete', index, oldest).finally(() => this.inFlight.delete(run));
    this.inFlight.add(run);
  }

  private async run(op: Operation, index: number, documentId?: string): Promise<void> {
    const patient = this.patients[index]!;
    const at = Date.now();
    const outcome: Outcome = { op, patient: index, at, ms: 0, status: 0, ...(documentId ? { documentId } : {}) };
    try {
      let response: Response;
      const signal = AbortSignal.timeout(this.options.timeoutMs);
      if (op === 'signin') {
        response = await fetch(`${this.base}/api/login/`, { method: 'POST', signal, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: patient.email, password: patient.password }) });
      } else if (op === 'delete') {
        response = await fetch(`${this.base}/api/upload/`, { method: 'DELETE', signal, headers: { 'content-type': 'application/json', authorization: `Bearer ${patient.access}` }, body: JSON.stringify({ document_id: documentId }) });
      } else if (op === 'list') {
        response = await fetch(`${this.base}/api/upload/`, { signal, headers: { authorization: `Bearer ${patient.access}` } });
      } else {
        const data = documentFiles.pdf(`fault ${randomUUID()}`);
        outcome.sha256 = sha256(data);
        const form = new FormData();
        form.append('files', new Blob([new Uint8Array(data)], { type: 'application/pdf' }), 'results.pdf');
        response = await fetch(`${this.base}/api/upload/`, { method: 'POST', signal, body: form, headers: { authorization: `Bearer ${patient.access}` } });
      }
      const text = await response.text();
      outcome.status = response.status;
      outcome.correlationId = response.headers.get('x-correlation-id') ?? undefined;
      const body = parse(text) as { message?: string; code?: string; access?: string; documents?: { id: string }[] } | undefined;
      if (response.status >= 400) {
        outcome.message = body?.message;
        outcome.code = body?.code;
      } else if (op === 'signin' && body?.access) {
        patient.access = body.access;
      } else if (op === 'upload') {
        outcome.documentId = body?.documents?.[0]?.id;
        if (outcome.documentId && this.options.keepPerPatient !== undefined) this.keep(index, outcome.documentId);
      } else if (op === 'delete' && outcome.documentId) {
        this.deleted.add(outcome.documentId);
      }
    } catch (error) {
      if (op === 'delete' && documentId) this.deleted.add(documentId);
      // fetch's "fetch failed" says little; its cause names what happened (ECONNREFUSED, a reset, ...).
      // Duck-typed: the error comes from Node's realm, not the test environment's (instanceof fails).
      const { name, message, cause } = (error ?? {}) as { name?: string; message?: string; cause?: { code?: string; message?: string } };
      outcome.error = message ? `${name ?? 'Error'}: ${message}${cause ? ` (${cause.code ?? cause.message})` : ''}` : String(error);
    }
    outcome.ms = Date.now() - at;
    this.outcomes.push(outcome);
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const ok = (o: Outcome) => o.status >= 200 && o.status < 300;

/** A short account of outcomes: "upload 201 ×12, list 503 ×4 (The service is unavailable…)". */
export function tally(outcomes: Outcome[]): string {
  const counts = new Map<string, number>();
  for (const o of outcomes) {
    const key = `${o.op} ${o.status || o.error}${o.status >= 400 ? ` (${o.message ?? ''})` : ''}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k} ×${n}`).join('; ');
}

/**
 * The invariants after a fault, over every outcome of the load:
 * - every upload answered 2xx is listed for its patient and downloads with the same bytes;
 * - every 2xx answer has its audit record (matched by the correlation id the answer carried).
 * Returns the counts checked.
 */
export async function checkAcknowledged(base: string, pg: OwnPostgres, database: string, load: MixedLoad): Promise<{ uploads: number; audited: number }> {
  const uploads = load.outcomes.filter((o) => o.op === 'upload' && ok(o) && !load.deleted.has(o.documentId ?? ''));
  for (const [index, patient] of load.patients.entries()) {
    const mine = uploads.filter((o) => o.patient === index);
    if (mine.length === 0) continue;
    const signedIn = await call<{ access: string }>(base, 'POST', '/api/login/', { email: patient.email, password: patient.password });
    if (signedIn.status !== 200) throw new Error(`sign-in after the fault: ${signedIn.status}`);
    const token = signedIn.body.access;
    const listed = await call<DocumentListItem[]>(base, 'GET', '/api/upload/', undefined, token);
    if (listed.status !== 200) throw new Error(`list after the fault: ${listed.status}`);
    const ids = new Set(listed.body.map((d) => d.id));
    const missing = mine.filter((o) => !o.documentId || !ids.has(o.documentId));
    if (missing.length) throw new Error(`${missing.length} acknowledged upload(s) not listed: ${missing.map((o) => o.documentId).join(', ')}`);
    for (const upload of mine) {
      const link = await call<DownloadLinkReply>(base, 'GET', `/api/get-document-download-link/${upload.documentId}/`, undefined, token);
      if (link.status !== 200) throw new Error(`download link of ${upload.documentId}: ${link.status}`);
      const file = await fetch(new URL(link.body.download_url, base));
      const bytes = new Uint8Array(await file.arrayBuffer());
      if (file.status !== 200 || sha256(bytes) !== upload.sha256) throw new Error(`download of ${upload.documentId}: ${file.status}, bytes ${sha256(bytes) === upload.sha256 ? 'same' : 'differ'}`);
    }
  }
  const answered = load.outcomes.filter(ok);
  const withoutId = answered.filter((o) => !o.correlationId);
  if (withoutId.length) throw new Error(`${withoutId.length} answer(s) without a correlation id`);
  const wanted = [...new Set(answered.map((o) => o.correlationId!))];
  const deadline = Date.now() + 60_000;
  let missing: string[] = wanted;
  while (Date.now() < deadline) {
    const rows = await pg.query<{ correlation_id: string }>(database, 'SELECT DISTINCT correlation_id FROM audit.audit_log WHERE correlation_id = ANY($1)', [wanted]);
    const found = new Set(rows.map((r) => r.correlation_id));
    missing = wanted.filter((id) => !found.has(id));
    if (missing.length === 0) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  if (missing.length) {
    const which = answered.filter((o) => missing.includes(o.correlationId!)).slice(0, 5);
    throw new Error(`${missing.length} of ${wanted.length} 2xx answers have no audit record, e.g. ${JSON.stringify(which)}`);
  }
  return { uploads: uploads.length, audited: wanted.length };
}

import { writeFile } from 'node:fs/promises';
import type { AuthorizeReply, ConnectionView, DeletedReply, DocumentListItem, EndpointView, HistoryPage, SummaryItem, TrendsReply } from '@medfolio/contracts';
import { SmartSandbox } from '@medfolio/testing/smart-sandbox';
import { call } from './journey';
import { waitFor } from './processes';
import { medicationListPdf } from './summary-journey';

function check(condition: boolean, what: string, detail?: unknown): void {
  if (!condition) throw new Error(`${what}${detail === undefined ? '' : `: ${JSON.stringify(detail)}`}`);
}

/** The directory entry the journeys connect: the local SMART sandbox as "Springfield General Hospital". */
export const JOURNEY_ENDPOINT_ID = 'springfield-general';
export const JOURNEY_CLIENT_ID = 'medfolio-e2e';
export const JOURNEY_REDIRECT = 'http://127.0.0.1/connections/callback';

/**
 * A local SMART on FHIR sandbox and the endpoint directory naming it (written to `directoryFile`), and
 * the settings the connections service needs to use them (loopback http allowed, the sandbox's client id).
 */
export async function startJourneySandbox(directoryFile: string): Promise<{ sandbox: SmartSandbox; env: Record<string, string> }> {
  const sandbox = await SmartSandbox.start({ clients: [{ client_id: JOURNEY_CLIENT_ID, redirect_uris: [JOURNEY_REDIRECT] }] });
  const bundle = {
    resourceType: 'Bundle',
    type: 'collection',
    entry: [
      { resource: { resourceType: 'Organization', id: 'springfield', name: 'Springfield General Hospital', address: [{ city: 'Springfield', state: 'IL' }], endpoint: [{ reference: `Endpoint/${JOURNEY_ENDPOINT_ID}` }] } },
      { resource: { resourceType: 'Endpoint', id: JOURNEY_ENDPOINT_ID, status: 'active', connectionType: { system: 'http://terminology.hl7.org/CodeSystem/endpoint-connection-type', code: 'hl7-fhir-rest' }, address: sandbox.fhirBaseUrl } },
    ],
  };
  await writeFile(directoryFile, JSON.stringify(bundle));
  return { sandbox, env: { FHIR_ENDPOINTS_FILE: directoryFile, SMART_DEFAULT_CLIENT_ID: JOURNEY_CLIENT_ID, CONNECTIONS_REDIRECT_URL: JOURNEY_REDIRECT, SMART_ALLOW_LOOPBACK_HTTP: 'true' } };
}

/**
 * Connecting a hospital through the gateway, as the web app does: search the directory, start (the
 * sandbox's authorization URL with PKCE S256 and aud), the browser's visit (auto-approved, redirected
 * back with a code and the state), the callback with the patient's token; the connection listed and
 * its records fetched (after connecting, and on demand with 202), the
 * access history naming it; a second patient cannot finish the first one's sign-in; disconnecting
 * revokes the grant at the sandbox and the connection is gone.
 */
export async function connectionsJourney(base: string, sandbox: SmartSandbox, patientToken: string, otherToken: string): Promise<void> {
  const found = await call<EndpointView[]>(base, 'GET', '/api/connections/endpoints/?q=springfield', undefined, patientToken);
  check(found.status === 200 && found.body.some((e) => e.id === JOURNEY_ENDPOINT_ID), 'the directory search', found.body);
  const started = await call<AuthorizeReply>(base, 'POST', '/api/connections/', { endpoint_id: JOURNEY_ENDPOINT_ID }, patientToken);
  check(started.status === 200, 'the start', started.body);
  const authorize = new URL(started.body.authorize_url);
  check(authorize.searchParams.get('code_challenge_method') === 'S256' && authorize.searchParams.get('aud') === sandbox.fhirBaseUrl, 'the authorization request', started.body);
  const location = (await fetch(authorize, { redirect: 'manual' })).headers.get('location');
  const back = new URL(location ?? 'http://invalid/');
  const query = new URLSearchParams({ code: back.searchParams.get('code') ?? '', state: back.searchParams.get('state') ?? '' }).toString();
  const stolen = await call(base, 'GET', `/api/connections/callback/?${query}`, undefined, otherToken);
  check(stolen.status === 400, "another patient finishing this one's sign-in", stolen);
  const connected = await call<ConnectionView>(base, 'GET', `/api/connections/callback/?${query}`, undefined, patientToken);
  check(connected.status === 200 && connected.body.status === 'connected' && connected.body.name === 'Springfield General Hospital', 'the callback', connected.body);
  const listed = await call<ConnectionView[]>(base, 'GET', '/api/connections/', undefined, patientToken);
  check(listed.status === 200 && listed.body.length === 1 && listed.body[0]?.id === connected.body.id, 'the list', listed.body);
  check((await call<ConnectionView[]>(base, 'GET', '/api/connections/', undefined, otherToken)).body.length === 0, "the other patient's list");
  // Connecting started the first sync; fetching again on demand answers 202 at once, and the list then shows what was kept.
  await waitFor('the first sync to end', async () => {
    const now = (await call<ConnectionView[]>(base, 'GET', '/api/connections/', undefined, patientToken)).body[0];
    return now?.sync_state === 'idle' && now.last_sync_at ? true : undefined;
  });
  // The sync handed the patient's documents one FHIR Bundle named after the source and the day.
  const recordDocuments = async () => (await call<DocumentListItem[]>(base, 'GET', '/api/upload/', undefined, patientToken)).body.filter((d) => d.filename.startsWith('Springfield General Hospital'));
  const [first] = await recordDocuments();
  check(first !== undefined && /^Springfield General Hospital — fetched \d{4}-\d{2}-\d{2}\.json$/.test(first.filename), 'the record document after the first sync', first);
  // A new condition at the hospital: the next sync replaces that document with one holding it.
  await sandbox.fhir.add({ resourceType: 'Condition', subject: { reference: 'Patient/123' }, code: { text: 'Sprained ankle (journey)' } });
  // An HbA1c result (the first key measure, so even the free plan's preview shows its series).
  await sandbox.fhir.add({
    resourceType: 'Observation',
    status: 'final',
    subject: { reference: 'Patient/123' },
    category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] }],
    code: { coding: [{ system: 'http://loinc.org', code: '4548-4', display: 'Hemoglobin A1c/Hemoglobin.total in Blood' }], text: 'Hemoglobin A1c' },
    effectiveDateTime: '2026-11-20',
    valueQuantity: { value: 6.9, unit: '%', system: 'http://unitsofmeasure.org', code: '%' },
  });
  // And a discharge letter (a PDF DocumentReference): it becomes a document of its own.
  const letter = await sandbox.fhir.add({ resourceType: 'Binary', contentType: 'application/pdf', securityContext: { reference: 'Patient/123' }, data: (await medicationListPdf()).toString('base64') });
  await sandbox.fhir.add({ resourceType: 'DocumentReference', status: 'current', subject: { reference: 'Patient/123' }, content: [{ attachment: { contentType: 'application/pdf', url: `Binary/${letter.id}`, title: 'Discharge letter' } }] });
  const synced = await call<ConnectionView>(base, 'POST', `/api/connections/${connected.body.id}/sync/`, undefined, patientToken);
  check(synced.status === 202 && synced.body.sync_state === 'syncing', 'fetching on demand', synced.body);
  check((await call(base, 'POST', `/api/connections/${connected.body.id}/sync/`, undefined, otherToken)).status === 404, "another patient fetching this one's connection");
  const kept = await waitFor('the sync to keep the patient', async () => {
    const now = (await call<ConnectionView[]>(base, 'GET', '/api/connections/', undefined, patientToken)).body[0];
    return now?.sync_state === 'idle' && now.last_sync_at && now.counts['Patient'] === 1 ? now : undefined;
  });
  check(kept.last_error === null && kept.state_text === 'Connected', 'the state after syncing', kept);
  const replaced = await waitFor('the record document replaced', async () => {
    const now = (await recordDocuments()).filter((d) => d.filename.endsWith('.json'));
    return now.length === 1 && now[0]?.id !== first?.id ? now[0] : undefined;
  });
  const letters = (await recordDocuments()).filter((d) => d.filename === 'Springfield General Hospital — Discharge letter.pdf');
  check(letters.length === 1, 'the discharge letter as a document of its own', await recordDocuments());
  check(replaced !== undefined, 'the record document replaced');
  // The summary reads it like any upload: the hospital's new condition, citing the document named after the hospital.
  const userId = (JSON.parse(Buffer.from(patientToken.split('.')[1] ?? '', 'base64url').toString()) as { sub: string }).sub;
  const cited = await waitFor('the summary to cite the record document', async () => {
    const item = (await call<SummaryItem[]>(base, 'GET', `/api/summary/?user=${userId}`, undefined, patientToken)).body[0];
    const fact = item?.sections.flatMap((section) => section.facts).find((f) => f.text.includes('Sprained ankle'));
    return fact?.sources.some((source) => source.document_id === replaced?.id) ? fact : undefined;
  }, 90_000);
  check(cited.sources.every((source) => source.filename.startsWith('Springfield General Hospital — fetched ')), 'the citation names the hospital', cited.sources);
  check(cited.sources.every((source) => /^Springfield General Hospital( via .+)?, fetched \d{1,2} \w{3} \d{4}$/.test(source.fetched_from ?? '')), "the citation's fetched_from says where and when", cited.sources);
  // The trends' point from the hospital's record says where it was fetched from (documents keep the
  // source connections gave on its upload; the summary learns it with the file), unlike an upload's.
  const point = await waitFor("the trends' HbA1c point from the record document", async () => {
    const reply = await call<TrendsReply>(base, 'GET', '/api/trends/', undefined, patientToken);
    return reply.body.series?.flatMap((series) => series.points).find((p) => p.value === 6.9 && p.sources.some((source) => source.document_id === replaced?.id));
  }, 90_000);
  const fetchedFrom = point.sources.find((source) => source.document_id === replaced?.id)?.fetched_from;
  check(typeof fetchedFrom === 'string' && /^Springfield General Hospital, fetched \d{1,2} [A-Z][a-z]{2} \d{4}$/.test(fetchedFrom), "the point's fetched_from", point.sources);
  const grants = sandbox.activeGrants();
  const deleted = await call<DeletedReply>(base, 'DELETE', `/api/connections/${connected.body.id}/`, undefined, patientToken);
  check(deleted.status === 200 && deleted.body.revoked_at_source === true && sandbox.activeGrants() === grants - 1, 'disconnecting', deleted.body);
  check((await call<ConnectionView[]>(base, 'GET', '/api/connections/', undefined, patientToken)).body.length === 0, 'the list after disconnecting');
  // The audit service writes the history from the AUDIT stream: it may take a moment.
  await waitFor('the access history to name the connection', async () => {
    const history = await call<HistoryPage>(base, 'GET', '/api/history/?page_size=100', undefined, patientToken);
    const what = history.body.results?.map((entry) => entry.what) ?? [];
    return what.includes('Connected a hospital or clinic') && what.includes('Fetched records from a hospital or clinic') && what.includes('Disconnected a hospital or clinic') ? true : undefined;
  });
}

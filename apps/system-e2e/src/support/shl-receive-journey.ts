import type { DocumentListItem, HistoryPage, ReceiveShlReply, SummaryItem } from '@medfolio/contracts';
import { ShlSender } from '@medfolio/testing';
import { call } from './journey';
import { waitFor } from './processes';

function check(condition: boolean, what: string, detail?: unknown): void {
  if (!condition) throw new Error(`${what}${detail === undefined ? '' : `: ${JSON.stringify(detail).slice(0, 800)}`}`);
}

const CONDITION = 'Journey condition from a clinic link';

/**
 * Receiving a clinic's SMART Health Link through the gateway (the product reaches a link server on
 * loopback only because the journeys run with SMART_ALLOW_LOOPBACK_HTTP=true): the clinic's server is
 * made with kill-the-clipboard, its link has a passcode and holds a FHIR Bundle and a SMART Health Card
 * signed by an issuer whose JWKS it serves. Asked for the passcode, a wrong one counted down, then both
 * added to the patient's documents through the documents service (not another patient's), the card's
 * issuer verified, the summary citing the link's document, the access history naming it; once the
 * clinic revokes the link it is "no longer valid".
 */
export async function shlReceiveJourney(base: string, patientToken: string, otherToken: string): Promise<void> {
  const sender = await ShlSender.start();
  try {
    const issuer = await sender.issuer('journey-clinic');
    const card = await issuer.issue({
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        { fullUrl: 'resource:0', resource: { resourceType: 'Patient', name: [{ family: 'Journey', given: ['Pat'] }], birthDate: '1970-01-01' } },
        { fullUrl: 'resource:1', resource: { resourceType: 'Immunization', status: 'completed', vaccineCode: { coding: [{ system: 'http://hl7.org/fhir/sid/cvx', code: '141' }] }, patient: { reference: 'resource:0' }, occurrenceDateTime: '2026-10-01' } },
      ],
    });
    const record = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        { fullUrl: 'urn:uuid:0d7c5b0e-1111-4111-8111-000000000001', resource: { resourceType: 'Patient', id: 'p', name: [{ family: 'Journey', given: ['Pat'] }] } },
        { fullUrl: 'urn:uuid:0d7c5b0e-1111-4111-8111-000000000002', resource: { resourceType: 'Condition', id: 'c', code: { text: CONDITION }, subject: { reference: 'urn:uuid:0d7c5b0e-1111-4111-8111-000000000001' } } },
      ],
    };
    const link = await sender.link({ files: [{ fhir: record }, { card }], label: 'Journey Clinic', passcode: 'journey-7', attempts: 3 });
    const receive = (body: Record<string, unknown>, token = patientToken) => call<ReceiveShlReply & { message?: string }>(base, 'POST', '/api/connections/shl/', body, token);

    const needed = await receive({ shlink: link.shlink });
    check(needed.status === 403 && needed.body.message === 'This link needs a passcode.', 'a passcode link without its passcode', needed);
    const wrong = await receive({ shlink: link.shlink, passcode: 'nope' });
    check(wrong.status === 403 && wrong.body.message === 'Wrong passcode. 2 attempts left.', 'a wrong passcode', wrong);
    const received = await receive({ shlink: `https://viewer.example/#${link.shlink}`, passcode: 'journey-7' });
    check(received.status === 200 && received.body.label === 'Journey Clinic' && received.body.imported.length === 2, 'receiving the link', received);
    const [bundle, health] = received.body.imported;
    check(bundle?.kind === 'fhir-bundle' && /^SMART Health Link from Journey Clinic, received \d{1,2} [A-Z][a-z]{2} \d{4}\.json$/.test(bundle.name), 'the bundle document', bundle);
    check(health?.kind === 'health-card' && health.verified_issuer === issuer.iss && /^SMART Health Card from Journey Clinic, received /.test(health.name), 'the verified card', health);

    // In the patient's documents (stored by the documents service), not in the other patient's.
    const documents = (await call<DocumentListItem[]>(base, 'GET', '/api/upload/', undefined, patientToken)).body;
    check([bundle.document_id, health.document_id].every((id) => documents.some((d) => d.id === id && (d.filename === bundle.name || d.filename === health.name))), 'the documents list', documents);
    const others = (await call<DocumentListItem[]>(base, 'GET', '/api/upload/', undefined, otherToken)).body;
    check(!others.some((d) => d.id === bundle.document_id || d.id === health.document_id), "the other patient's documents", others);

    // The summary reads the bundle like any upload and cites the link's document.
    const userId = (JSON.parse(Buffer.from(patientToken.split('.')[1] ?? '', 'base64url').toString()) as { sub: string }).sub;
    const cited = await waitFor('the summary to cite the link', async () => {
      const item = (await call<SummaryItem[]>(base, 'GET', `/api/summary/?user=${userId}`, undefined, patientToken)).body[0];
      const fact = item?.sections.flatMap((section) => section.facts).find((f) => f.text.includes(CONDITION));
      return fact?.sources.some((source) => source.document_id === bundle.document_id) ? fact : undefined;
    }, 90_000);
    check(cited.sources.some((source) => source.filename === bundle.name), 'the citation names the link', cited.sources);

    await waitFor('the access history to name the link', async () => {
      const history = await call<HistoryPage>(base, 'GET', '/api/history/?page_size=100', undefined, patientToken);
      return history.body.results?.some((entry) => entry.what === "Received records from a clinic's SMART Health Link") ? true : undefined;
    });

    link.revoke();
    const gone = await receive({ shlink: link.shlink, passcode: 'journey-7' });
    check(gone.status === 404 && gone.body.message === 'This link is no longer valid. Ask the clinic for a new one.', 'a revoked link', gone);
  } finally {
    await sender.stop();
  }
}

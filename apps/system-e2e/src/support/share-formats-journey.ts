import type { Bundle } from '@medplum/fhirtypes';
import { decodeShlink, shlFileToken } from '@medfolio/clinical';
import { validateIpsBundle } from '@medfolio/clinical/fhir-testing';
import type { ShareLinkItem, ShareLinkUnlockReply, SummaryItem } from '@medfolio/contracts';
import { receiveShl, type ShlHttp } from '@medfolio/testing';
import { call } from './journey';

function check(condition: boolean, what: string, detail?: unknown): void {
  if (!condition) throw new Error(`${what}${detail === undefined ? '' : `: ${JSON.stringify(detail).slice(0, 600)}`}`);
}

/**
 * A SHL client over real HTTP. The product's PUBLIC_BASE_URL is not this run's random port, so the
 * manifest and file URLs the product writes are sent to the running server instead (path and query kept).
 */
function httpTo(base: string): ShlHttp {
  const here = (url: string): string => {
    const u = new URL(url);
    return `${base}${u.pathname}${u.search}`;
  };
  return {
    async postJson(url, body) {
      const response = await fetch(here(url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON
      }
      return { status: response.status, body: parsed };
    },
    async get(url) {
      const response = await fetch(here(url));
      return {
        status: response.status,
        contentType: response.headers.get('content-type') ?? '',
        text: await response.text(),
      };
    },
  };
}

/**
 * The summary's formats as a doctor meets them: a patient with a confirmed summary makes
 * a passcode link that is also a SMART Health Link; a receiver written from the spec reads its IPS
 * Bundle over HTTP (a valid FHIR R4 document); a wrong passcode answers 401 with the attempts left;
 * the FHIR and PDF routes answer the link (passcode first) and the owner; after revocation all 404.
 */
export async function shareFormatsJourney(base: string, ownerId: string, token: string): Promise<void> {
  await call(base, 'POST', '/api/summary/facts/', { section: 'allergies', text: 'Penicillin (hives)' }, token);
  const added = await call<SummaryItem>(
    base,
    'POST',
    '/api/summary/facts/',
    { section: 'medications', text: 'Metformin 500 mg twice daily' },
    token,
  );
  check(added.status === 200, 'add a fact', added.body);
  const confirmed = await call<SummaryItem>(
    base,
    'POST',
    '/api/summary/confirm/',
    { version: added.body.version },
    token,
  );
  check(confirmed.status === 200, 'confirm the summary', confirmed.body);

  const made = await call<ShareLinkItem>(
    base,
    'POST',
    '/api/share-links/',
    { label: 'For Dr Lee', passcode: 'blue-heron', shl: true },
    token,
  );
  check(made.status === 201 && !!made.body.shl, 'a passcode link that is an SHL', made.body);
  const link = made.body;
  check(link.qr_text === `${link.url}#${link.shl}`, 'the QR carries the page URL with the SHL after #', link);

  const http = httpTo(base);
  const wrong = await receiveShl(link.qr_text, http, { recipient: 'Dr Lee, City Clinic', passcode: 'heron-blue' });
  check(
    !wrong.ok && wrong.status === 401 && (wrong.body as { remainingAttempts?: number }).remainingAttempts === 4,
    'a wrong passcode: 401 with 4 attempts left',
    wrong,
  );
  const read = await receiveShl(link.qr_text, http, { recipient: 'Dr Lee, City Clinic', passcode: 'blue-heron' });
  if (!read.ok) throw new Error(`the SHL receiver was refused: ${JSON.stringify(read)}`);
  check(read.payload.flag === 'LP' && read.payload.label === 'For Dr Lee', 'the payload flags and label', read.payload);
  const bundle = read.files[0]?.json as Bundle;
  const problems = validateIpsBundle(bundle);
  check(problems.length === 0, 'the SHL file is a valid IPS Bundle', problems);
  check(JSON.stringify(bundle).includes('Metformin 500 mg twice daily'), 'the Bundle has the medication');
  const byLocation = await receiveShl(link.qr_text, http, {
    recipient: 'Dr Lee',
    passcode: 'blue-heron',
    embeddedLengthMax: 0,
  });
  check(byLocation.ok && byLocation.files[0]?.via === 'location', 'the file by location', byLocation);

  // Browser-based SHL clients: the manifest answers CORS preflights from any origin.
  const manifestPath = new URL(read.payload.url);
  const preflight = await fetch(`${base}${manifestPath.pathname}${manifestPath.search}`, {
    method: 'OPTIONS',
    headers: {
      origin: 'https://viewer.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    },
  });
  check(
    preflight.status === 204 && preflight.headers.get('access-control-allow-origin') === '*',
    'the manifest allows CORS',
    preflight.status,
  );

  // The FHIR route: the passcode first, then application/fhir+json with the share headers.
  const fhirPath = `/api/summary/fhir/?user=${link.share_id}`;
  check((await call(base, 'GET', fhirPath)).status === 403, 'FHIR asks for the passcode first');
  const unlocked = await call<ShareLinkUnlockReply>(base, 'POST', '/api/summary/unlock/', {
    user: link.share_id,
    passcode: 'blue-heron',
  });
  check(unlocked.status === 200, 'unlock', unlocked.body);
  const fhir = await fetch(`${base}${fhirPath}&view_token=${encodeURIComponent(unlocked.body.view_token)}`);
  check(
    fhir.status === 200 && (fhir.headers.get('content-type') ?? '').startsWith('application/fhir+json'),
    'FHIR answers application/fhir+json',
    fhir.status,
  );
  check(
    fhir.headers.get('x-robots-tag') === 'noindex' && fhir.headers.get('referrer-policy') === 'no-referrer',
    'FHIR carries the share headers',
  );
  const fhirProblems = validateIpsBundle((await fhir.json()) as Bundle);
  check(fhirProblems.length === 0, 'the FHIR route gives a valid IPS Bundle', fhirProblems);

  // The PDF: through the link (its token), and for the owner.
  const pdf = await fetch(
    `${base}/api/summary/pdf/?user=${link.share_id}&size=letter&view_token=${encodeURIComponent(unlocked.body.view_token)}`,
  );
  const bytes = Buffer.from(await pdf.arrayBuffer());
  check(pdf.status === 200 && pdf.headers.get('content-type') === 'application/pdf', 'the PDF', pdf.status);
  check(
    bytes.subarray(0, 5).toString('latin1') === '%PDF-' && bytes.toString('latin1').includes('/MediaBox [0 0 612 792]'),
    'a Letter PDF',
  );
  check(
    /^inline; filename="Medfolio_summary_\d{4}-\d{2}-\d{2}_letter\.pdf"$/.test(
      pdf.headers.get('content-disposition') ?? '',
    ),
    'its file name',
    pdf.headers.get('content-disposition'),
  );
  const own = await fetch(`${base}/api/summary/pdf/?user=${ownerId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  check(own.status === 200 && (await own.arrayBuffer()).byteLength > 1000, "the owner's PDF", own.status);
  const bad = await call(base, 'GET', `/api/summary/pdf/?user=${ownerId}&size=a3`, undefined, token);
  check(
    bad.status === 400 && (bad.body as { message?: string }).message === 'size must be a4 or letter.',
    'a bad size',
    bad.body,
  );

  // Revoked: the SHL, the FHIR route and the PDF all answer 404.
  const revoked = await call(base, 'POST', `/api/share-links/${link.id}/revoke/`, {}, token);
  check(revoked.status === 200, 'revoke', revoked.body);
  const after = await receiveShl(link.qr_text, http, { recipient: 'Dr Lee', passcode: 'blue-heron' });
  check(!after.ok && after.status === 404, 'a revoked SHL answers 404', after);
  check((await call(base, 'GET', fhirPath)).status === 404, 'a revoked link has no FHIR');
  check(
    (await call(base, 'GET', `/api/summary/pdf/?user=${link.share_id}`)).status === 404,
    'a revoked link has no PDF',
  );

  // An SHL without a passcode: each fetch of a file location is a view; a file token
  // its holder makes with the payload's key to last longer than a location may is refused.
  const plain = await call<ShareLinkItem>(base, 'POST', '/api/share-links/', { label: 'Clinic app', shl: true }, token);
  check(plain.status === 201 && !!plain.body.shl, 'an SHL without a passcode', plain.body);
  const viewsOf = async () =>
    (await call<ShareLinkItem[]>(base, 'GET', '/api/share-links/', undefined, token)).body.find(
      (l) => l.id === plain.body.id,
    )?.view_count;
  const located = await receiveShl(plain.body.qr_text, http, { recipient: 'Dr Lee', embeddedLengthMax: 0 });
  check(located.ok && located.files[0]?.via === 'location', 'its file by location', located);
  check((await viewsOf()) === 1, 'the fetch of the location is the view', await viewsOf());
  const payload = decodeShlink(plain.body.shl ?? '');
  const manifestUrl = new URL(payload.url);
  const query = new URLSearchParams({
    user: plain.body.share_id,
    tag: manifestUrl.searchParams.get('tag') ?? '',
    token: shlFileToken(payload.key, `${plain.body.share_id}:`, Math.floor(Date.now() / 1000) + 10 * 365 * 86_400),
  });
  const minted = await fetch(`${base}/api/summary/shl/file/?${query.toString()}`);
  check(minted.status === 404, 'a file token made to last ten years is refused', minted.status);
  check((await viewsOf()) === 1, 'the refused fetch is no view', await viewsOf());
}

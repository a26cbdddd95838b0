import { randomBytes } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import Stripe from 'stripe';
import type { CheckoutReply, ContactReply, MembershipView, TrendSeries, TrendsReply } from '@medfolio/contracts';
import { CCDA_GLUCOSE, FHIR_GLUCOSE, trendDocuments, type StripeRecorder } from '@medfolio/testing';
import { uploadFiles } from './documents-journey';
import { call } from './journey';
import { waitFor } from './processes';

function check(condition: boolean, what: string, detail?: unknown): void {
  if (!condition) throw new Error(`${what}${detail === undefined ? '' : `: ${JSON.stringify(detail).slice(0, 1500)}`}`);
}

const contact = (base: string, token: string | undefined, who: string) =>
  call<ContactReply>(base, 'POST', '/api/contact/', { firstname: 'Trend', lastname: who, email: `trends-${who.toLowerCase()}@example.com`, message: `A question about my trends (${who})` }, token);

/**
 * Subscribes the signed-in user to `tier` in Stripe's test mode (stripe-mock behind the recorder):
 * checkout, then Stripe's signed webhook saying the subscription is active, then waits for the plan.
 */
export async function subscribe(base: string, token: string, stripe: StripeRecorder, webhookSecret: string, tier: 'plus' | 'pro'): Promise<void> {
  const before = stripe.requests.length;
  const checkout = await call<CheckoutReply>(base, 'POST', '/api/stripe/checkout/', { price_id: `price_${tier}_monthly`, tier, mode: 'monthly' }, token);
  check(checkout.status === 200, 'checkout', checkout.body);
  const created = stripe.requests.slice(before).find((r) => r.method === 'POST' && r.path === '/v1/subscriptions');
  if (!created) throw new Error('subscription created in Stripe');
  const now = Math.floor(Date.now() / 1000);
  const payload = JSON.stringify({
    id: `evt_${randomBytes(12).toString('hex')}`,
    object: 'event',
    type: 'customer.subscription.updated',
    created: now,
    data: {
      object: {
        id: String(created.response['id']),
        object: 'subscription',
        customer: created.params['customer'],
        status: 'active',
        cancel_at_period_end: false,
        metadata: {},
        items: { object: 'list', data: [{ id: 'si_trends', current_period_end: now + 30 * 86400, price: { id: 'price_trends', lookup_key: `price_${tier}_monthly`, metadata: {} } }] },
      },
    },
  });
  const signature = new Stripe('sk_test_signer').webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
  const delivered = await fetch(`${base}/api/stripe/webhook/`, { method: 'POST', body: payload, headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature } });
  check(delivered.status === 200, 'webhook delivered', await delivered.text());
  await waitFor(`the ${tier} plan`, async () => ((await call<MembershipView>(base, 'GET', '/api/membership/', undefined, token)).body.plan === tier ? true : undefined), 20_000);
}

/**
 * Health trends through the product: a C-CDA (glucose in mg/dL) and a FHIR Bundle (glucose in
 * mmol/L) from the corpus uploaded; on the Free plan a preview (one key measure, the rest locked, no
 * timeline) and the CSV of every observation; the contact form answered as standard support. With
 * `upgrade` (a Plus subscription): the glucose series in one unit, each point citing its document,
 * the timeline, and the contact form marked priority with its answer time.
 */
export async function trendsJourney(base: string, token: string, upgrade?: () => Promise<void>): Promise<{ observations: number; series: number }> {
  const signedOut = await call(base, 'GET', '/api/trends/');
  check(signedOut.status === 401, 'trends need a sign-in', signedOut.status);

  const docs = trendDocuments();
  const uploaded = await uploadFiles(base, token, [
    { name: 'ccd.xml', data: docs.ccda, type: 'application/xml' },
    { name: 'ips-bundle.json', data: docs.fhir, type: 'application/fhir+json' },
  ]);
  check(uploaded.status === 201 && uploaded.body.documents.length === 2, 'the two records uploaded', uploaded.body);
  const ids = new Map(uploaded.body.documents.map((d) => [d.filename, d.id] as const));
  const ccdaId = ids.get('ccd.xml');
  const fhirId = ids.get('ips-bundle.json');
  check(!!ccdaId && !!fhirId, 'document ids', uploaded.body.documents);

  // Free: a preview once both documents are read.
  const preview = await waitFor('the preview with glucose from both documents', async () => {
    const reply = await call<TrendsReply>(base, 'GET', '/api/trends/', undefined, token);
    return reply.status === 200 && reply.body.locked.find((l) => l.key === 'glucose')?.points === 2 ? reply.body : undefined;
  }, 60_000);
  check(preview.access === 'preview' && preview.series.length === 1 && (preview.series[0]?.points.length ?? 0) > 0 && preview.timeline.length === 0, 'a preview', preview);
  check(!JSON.stringify(preview.locked).includes('126.11'), 'no locked value in a preview');

  // The CSV of every observation, on any plan.
  const csv = await fetch(`${base}/api/trends/export.csv`, { headers: { authorization: `Bearer ${token}` } });
  check(csv.status === 200 && /^text\/csv/.test(csv.headers.get('content-type') ?? ''), 'the CSV', csv.status);
  check(/^attachment; filename="medfolio-trends-\d{4}-\d{2}-\d{2}\.csv"$/.test(csv.headers.get('content-disposition') ?? ''), 'a download', csv.headers.get('content-disposition'));
  const rows = parse(await csv.text(), { columns: true }) as Record<string, string>[];
  const glucoseRows = rows.filter((r) => r['code'] === '2345-7').map((r) => [r['date'], r['value'], r['unit'], r['value_in_series_unit'], r['series_unit'], r['flag'], r['document_id']]);
  check(
    JSON.stringify(glucoseRows) ===
      JSON.stringify([
        [CCDA_GLUCOSE.date, '100', 'mg/dL', '100', 'mg/dL', 'high', ccdaId],
        [FHIR_GLUCOSE.date, '7', 'mmol/L', '126.11', 'mg/dL', 'high', fhirId],
      ]),
    'both glucose rows, converted to the series unit',
    glucoseRows,
  );
  check(rows.length > 20 && rows.every((r) => r['document_id'] === ccdaId || r['document_id'] === fhirId), 'every observation, each citing its document', rows.length);

  // Standard support on Free (signed in), and signed out.
  const standard = await contact(base, token, 'Free');
  check(standard.status === 200 && standard.body.priority === false && standard.body.answer_within_hours === 48, 'standard support', standard.body);
  const anonymous = await contact(base, undefined, 'Anonymous');
  check(anonymous.status === 200 && anonymous.body.priority === false, 'signed-out support', anonymous.body);
  const forged = await contact(base, 'not-a-token', 'Forged');
  check(forged.status === 401, 'a token that is not valid is refused', forged.status);

  if (!upgrade) return { observations: rows.length, series: preview.series.length + preview.locked.length };
  await upgrade();
  const full = await waitFor('full access', async () => {
    const reply = await call<TrendsReply>(base, 'GET', '/api/trends/', undefined, token);
    return reply.body.access === 'full' ? reply.body : undefined;
  }, 20_000);
  const glucose = full.series.find((s) => s.key === 'glucose') as TrendSeries | undefined;
  if (glucose?.unit !== 'mg/dL' || glucose.ucum !== 'mg/dL') throw new Error(`glucose in one unit: ${JSON.stringify(glucose)}`);
  const points = glucose.points.map((p) => [p.date, p.value, p.original.unit, p.flag, p.sources.map((s) => s.document_id)]);
  check(
    JSON.stringify(points) ===
      JSON.stringify([
        [CCDA_GLUCOSE.date, 100, 'mg/dL', 'high', [ccdaId]],
        [FHIR_GLUCOSE.date, 126.11, 'mmol/L', 'high', [fhirId]],
      ]),
    'one line citing both documents',
    points,
  );
  check(full.locked.length === 0 && full.timeline.length > 0, 'nothing locked, and a timeline', { locked: full.locked.length, timeline: full.timeline.length });
  // Each point opens its document.
  const link = await call<{ url?: string }>(base, 'GET', `/api/get-document-download-link/${fhirId}/`, undefined, token);
  check(link.status === 200, 'the cited document opens', link.status);

  const priority = await contact(base, token, 'Plus');
  check(priority.status === 200 && priority.body.priority === true && priority.body.answer_within_hours === 4, 'priority support on Plus', priority.body);
  return { observations: rows.length, series: full.series.length };
}

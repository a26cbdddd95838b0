// Share-link benchmark: a public summary page view against the gateway's own health check,
// in the same run, in the product as `npm start` runs it (one process, embedded PGlite, in-process
// messaging).
//
//   npm run build && npm run bench:share          BENCH_SECONDS=10 (default), BENCH_CONNECTIONS=16
//
// view:     GET /api/summary/?user={shareId}, signed out, as a doctor's browser asks it: the link is
//           looked up by its hash, the view is audited (fail-closed: acknowledged before the answer)
//           and counted, and the owner's confirmed version is read and stripped of private data.
// baseline: GET /api/health/ of the same gateway (every service's readiness, no database write).
// Both: autocannon after a warm-up; figures p50 latency and requests/s, and the view's requests/s as a
// share of the baseline's (goal >= 50%). Results also go to bench/results/share-<date>.json.
import autocannon from 'autocannon';
import { api, saveResults, signedInPatient, startOneProcess } from './lib.mjs';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);

async function load(name, url) {
  await autocannon({ url, connections, duration: 2 }); // warm-up
  const result = await autocannon({ url, connections, duration: seconds });
  const figures = { name, requestsPerSecond: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99, errors: result.errors, non2xx: result.non2xx };
  console.log(
    `${name.padEnd(14)} ${figures.requestsPerSecond.toFixed(0).padStart(6)} req/s   p50 ${String(figures.p50Ms).padStart(4)} ms   p99 ${String(figures.p99Ms).padStart(5)} ms   errors ${figures.errors}   non-2xx ${figures.non2xx}`,
  );
  return figures;
}

async function main() {
  const product = await startOneProcess('share', { RATE_LIMIT_PER_MINUTE: '100000000' });
  const { base } = product;
  try {
    // A patient with a confirmed summary (a few facts of their own) and a share link.
    const { access } = await signedInPatient(base);
    let item;
    for (const [section, text] of [
      ['current_conditions', 'Type 2 diabetes mellitus'],
      ['current_conditions', 'Essential hypertension'],
      ['medications', 'Metformin 500 mg by mouth twice daily'],
      ['medications', 'Lisinopril 10 mg daily'],
      ['allergies', 'Penicillin (hives)'],
      ['past_history', 'Appendectomy 2009'],
    ]) item = await api(base, 'POST', '/api/summary/facts/', { section, text }, access);
    await api(base, 'POST', '/api/summary/confirm/', { version: item.version }, access);
    const link = await api(base, 'POST', '/api/share-links/', { label: 'For Dr Lee' }, access);
    const shared = await api(base, 'GET', `/api/summary/?user=${link.share_id}`);
    if (shared[0]?.shared?.label !== 'For Dr Lee') throw new Error(`not the shared summary: ${JSON.stringify(shared).slice(0, 300)}`);

    console.log(`${connections} connections, ${seconds} s each, after a 2 s warm-up:\n`);
    const health = await load('/api/health/', `${base}/api/health/`);
    const view = await load('shared view', `${base}/api/summary/?user=${link.share_id}`);
    const share = view.requestsPerSecond / health.requestsPerSecond;
    console.log(`\nshared view: ${(share * 100).toFixed(0)}% of /api/health/'s requests/s (goal >= 50%); p50 ${view.p50Ms} ms vs ${health.p50Ms} ms`);
    const links = await api(base, 'GET', '/api/share-links/', undefined, access);
    console.log(`views counted on the link: ${links.find((l) => l.id === link.id).view_count}`);

    console.log(`Results: ${await saveResults('share', { connections, seconds, health, view, viewShareOfHealth: share })}`);
  } finally {
    await product.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

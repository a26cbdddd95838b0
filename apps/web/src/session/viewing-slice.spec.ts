import { readFileSync } from 'node:fs';
import path from 'node:path';
import { makeStore } from '../app/store';
import { signedOut } from './session-slice';
import { canManage, patientHeaderFor, viewingChanged, viewingEnded, type ViewedRecord } from './viewing-slice';

const leo: ViewedRecord = { patient_id: '5b0f3c1e-8a6e-4f55-9d0f-2f1c3a4b5c6d', first_name: 'Leo', role: 'guardian' };

describe('the record a tab is viewing', () => {
  beforeEach(() => sessionStorage.clear());

  it('names the viewed record on exactly the routes that may act for another person (the API document’s X-Patient-Id)', () => {
    // docs/api/openapi.json is made from the route table (npm run api:generate): a route with
    // `onBehalf` takes the X-Patient-Id header; every other one refuses it.
    const doc = JSON.parse(readFileSync(path.resolve(__dirname, '../../../../docs/api/openapi.json'), 'utf8')) as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
    };
    const wrong: string[] = [];
    let onBehalfRoutes = 0;
    for (const [template, operations] of Object.entries(doc.paths)) {
      if (!template.startsWith('/api/')) continue;
      const takes = Object.values(operations).map((op) => (op.parameters ?? []).some((p) => p.in === 'header' && p.name.toLowerCase() === 'x-patient-id'));
      onBehalfRoutes += takes.filter(Boolean).length;
      const sends = patientHeaderFor(template.replace(/\{[^}]+\}/g, 'x1'), leo) === leo.patient_id;
      // The client matches paths: every method on a path must agree with it.
      if (takes.some((t) => t !== sends)) wrong.push(`${template}: ${sends ? 'must not carry' : 'needs'} X-Patient-Id`);
    }
    expect(onBehalfRoutes).toBeGreaterThan(10);
    expect(wrong).toEqual([]);
  });

  it('sends nothing for the user’s own record, and reads a query string or a full URL', () => {
    expect(patientHeaderFor('/api/upload/', null)).toBeUndefined();
    expect(patientHeaderFor('/api/history/?page=2', leo)).toBe(leo.patient_id);
    expect(patientHeaderFor('https://localhost/api/summary/', leo)).toBe(leo.patient_id);
    expect(patientHeaderFor('/api/profile/', leo)).toBeUndefined();
    expect(patientHeaderFor('/api/family/members/', leo)).toBeUndefined();
  });

  it('is kept per tab, ended with a notice, and forgotten on sign-out', () => {
    const store = makeStore();
    store.dispatch(viewingChanged(leo));
    expect(JSON.parse(sessionStorage.getItem('medfolio.viewing') ?? 'null')).toEqual(leo);
    expect(makeStore().getState().viewing.record).toEqual(leo);
    store.dispatch(viewingEnded());
    expect(store.getState().viewing).toEqual({ record: null, ended: 'Leo' });
    expect(sessionStorage.getItem('medfolio.viewing')).toBeNull();
    store.dispatch(viewingChanged(leo));
    store.dispatch(signedOut('logout'));
    expect(store.getState().viewing.record).toBeNull();
    expect(makeStore().getState().viewing.record).toBeNull();
  });

  it('view-only roles cannot change the record; every other role can', () => {
    expect(canManage(null)).toBe(true);
    expect(canManage(leo)).toBe(true);
    expect(canManage({ ...leo, role: 'manage' })).toBe(true);
    expect(canManage({ ...leo, role: 'view' })).toBe(false);
  });

  it('switching records empties the cache, so nothing of one person shows under another’s name', async () => {
    const store = makeStore();
    const { api } = await import('../api/api');
    await store.dispatch(api.util.upsertQueryData('historyList', { page: 1, page_size: 50 }, { results: [], page: 1, page_size: 50, total: 0 }));
    expect(Object.keys(store.getState().api.queries)).toHaveLength(1);
    store.dispatch(viewingChanged(leo));
    expect(Object.keys(store.getState().api.queries)).toHaveLength(0);
  });
});

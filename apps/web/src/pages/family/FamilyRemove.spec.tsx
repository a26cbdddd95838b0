import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FamilyOverview } from '@medfolio/contracts';
import { clearTokens, storeTokens } from '../../session/tokens';
import { fakeServer } from '../../test/fake-server';
import { renderPage } from '../../test/render';
import { ANA } from '../../test/users';
import FamilyPage from './FamilyPage';

const LEO = '0c5e2b7a-1d4f-4e8a-9b3c-6f7e8d9a0b1c';

const ana = { patient_id: ANA.id, first_name: 'Ana', last_name: 'Lima', date_of_birth: '1990-03-04', kind: 'self', my_role: 'owner', age_band: 'adult', access_expires_at: null } as const;
const leo = { patient_id: LEO, first_name: 'Leo', last_name: 'Lima', date_of_birth: '2019-05-06', kind: 'dependant', my_role: 'guardian', age_band: 'child', access_expires_at: null } as const;
const ERASING =
  'Leo is removed. Their record is being erased: documents and stored files, summary, share links, wallet pass and hospital connections are deleted within minutes, and share links stopped working now. Their access history is kept as the law requires, but nobody can read it any more.';

beforeEach(() => {
  jest.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  sessionStorage.clear();
  storeTokens({ access: 'access-1', refresh: 'refresh-1' });
});
afterEach(() => clearTokens());

it("removes a child only once their first name is typed, says what happens, and switches away from the child's record", async () => {
  // This tab was showing Leo's record.
  sessionStorage.setItem('medfolio.viewing', JSON.stringify({ patient_id: LEO, first_name: 'Leo', role: 'guardian' }));
  let removed = false;
  const { calls } = fakeServer({
    'GET /api/family/members/': () => ({
      body: {
        records: removed ? [ana] : [ana, leo],
        members: removed ? [] : [{ id: LEO, kind: 'dependant', patient_id: LEO, name: 'Leo Lima', email: null, role: 'guardian', status: 'active', last_active_at: null, expires_at: null, date_of_birth: '2019-05-06' }],
        invites: [],
      } satisfies FamilyOverview,
    }),
    [`DELETE /api/family/members/${LEO}/`]: () => {
      removed = true;
      return { status: 202, body: { message: ERASING, accepted: true, erased_at: '2026-11-27T10:00:00.000Z' } };
    },
  });
  const user = userEvent.setup();
  const { store } = renderPage(<FamilyPage />, { path: '/family' });
  const card = await screen.findByRole('listitem', { name: 'Leo Lima' });
  await user.click(within(card).getByRole('button', { name: 'Remove Leo' }));
  const dialog = await screen.findByRole('dialog', { name: 'Remove Leo?' });
  expect(dialog).toHaveTextContent('nobody can read it any more');

  // Nothing is sent until the name matches.
  await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
  expect(within(dialog).getByLabelText('Type Leo to confirm')).toHaveAttribute('aria-invalid', 'true');
  expect(within(dialog).getByText('Type Leo to confirm.')).toBeInTheDocument();
  await user.type(within(dialog).getByLabelText('Type Leo to confirm'), 'Lea');
  await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
  expect(within(dialog).getByText('The name you typed does not match. Type Leo to confirm.')).toBeInTheDocument();
  expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);

  await user.clear(within(dialog).getByLabelText('Type Leo to confirm'));
  await user.type(within(dialog).getByLabelText('Type Leo to confirm'), 'leo');
  await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
  // Switching away from Leo's record empties the cache, so the page may show its loading state first.
  expect((await screen.findByText(ERASING, {}, { timeout: 5000 })).closest('[role="status"]')).not.toBeNull();
  expect(calls.find((c) => c.method === 'DELETE')).toMatchObject({ path: `/api/family/members/${LEO}/`, body: { confirm_name: 'leo' } });
  // Family administration is never sent on behalf of the viewed record.
  expect(calls.find((c) => c.method === 'DELETE')).not.toHaveProperty('patient');
  await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Leo Lima' })).toBeNull());
  expect(store.getState().viewing.record).toBeNull();
});

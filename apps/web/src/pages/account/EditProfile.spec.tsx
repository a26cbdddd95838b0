import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeServer, type RecordedCall } from '../../test/fake-server';
import { renderPage } from '../../test/render';
import { clearTokens, storeTokens } from '../../session/tokens';
import EditProfile from './EditProfile';
import { ANA } from '../../test/users';

const profile = ANA;

type Routes = Parameters<typeof fakeServer>[0];

/** The stored profile, as GET /api/profile/ answers it (a test's handlers may change it). */
let stored = profile;

/** The gateway for this page: the profile, plus whatever a test adds. */
function server(routes: Routes = {}) {
  stored = profile;
  return fakeServer({ 'GET /api/profile/': () => ({ body: stored }), ...routes });
}

async function renderEditProfile() {
  const view = renderPage(<EditProfile />, { path: '/edit-profile' });
  await screen.findByRole('heading', { level: 1, name: 'User Settings' });
  return view;
}

const writes = (calls: RecordedCall[]) => calls.filter((c) => c.method !== 'GET');
const picture = (name = 'me.png', type = 'image/png') => new File(['picture bytes'], name, { type });

let objectUrls = 0;
beforeEach(() => {
  objectUrls = 0;
  URL.createObjectURL = jest.fn(() => `blob:preview-${++objectUrls}`);
  URL.revokeObjectURL = jest.fn();
  storeTokens({ access: 'a', refresh: 'r' });
});
afterEach(() => clearTokens());

describe('Edit profile: the form', () => {
  it('shows a loading state, then the loaded profile', async () => {
    server();
    renderPage(<EditProfile />, { path: '/edit-profile' });
    expect(screen.getByRole('status')).toHaveTextContent('Loading your settings…');
    await screen.findByRole('heading', { level: 1, name: 'User Settings' });
    expect(screen.getByLabelText('First Name')).toHaveValue('Ana');
    expect(screen.getByLabelText('Last Name')).toHaveValue('Lima');
    expect(screen.getByLabelText('Phone')).toHaveValue('+1 202 555 0143');
    expect(screen.getByRole('heading', { level: 2, name: 'Profile picture' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Personal information' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Update Password' })).toBeInTheDocument();
  });

  it('shows the e-mail read-only, with the spec text', async () => {
    server();
    await renderEditProfile();
    const email = screen.getByLabelText('Email');
    expect(email).toHaveValue('ana@example.com');
    expect(email).toHaveAttribute('readonly');
    expect(email).toHaveAccessibleDescription('Email cannot be changed. Contact support if you need to update it.');
    expect(screen.getByRole('link', { name: 'Contact support' })).toHaveAttribute('href', '/contact');
  });

  it('enables Save only when something changed, and Cancel restores the loaded values', async () => {
    const user = userEvent.setup();
    const calls = server().calls;
    await renderEditProfile();
    const save = screen.getByRole('button', { name: 'Save Changes' });
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    expect(save).toBeDisabled();
    expect(cancel).toBeDisabled();

    const first = screen.getByLabelText('First Name');
    await user.type(first, 'bel');
    expect(first).toHaveValue('Anabel');
    expect(save).toBeEnabled();

    // Typing the loaded value back makes the form clean again.
    await user.clear(first);
    await user.type(first, 'Ana');
    expect(save).toBeDisabled();

    await user.clear(screen.getByLabelText('Phone'));
    await user.type(screen.getByLabelText('Phone'), '+1 202 555 0199');
    await user.type(screen.getByLabelText('Last Name'), '-Costa');
    expect(save).toBeEnabled();
    await user.click(cancel);
    expect(screen.getByLabelText('Phone')).toHaveValue('+1 202 555 0143');
    expect(screen.getByLabelText('Last Name')).toHaveValue('Lima');
    expect(save).toBeDisabled();
    expect(writes(calls)).toEqual([]);
  });

  it('shows clear messages for a missing first name or phone and sends nothing', async () => {
    const user = userEvent.setup();
    const calls = server().calls;
    await renderEditProfile();
    await user.clear(screen.getByLabelText('First Name'));
    await user.tab();
    expect(await screen.findByText('First name is required')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Phone'));
    await user.tab();
    expect(await screen.findByText('Phone is required')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(screen.getByLabelText('First Name')).toHaveAccessibleDescription('First name is required');
    expect(writes(calls)).toEqual([]);
  });

  it('says Limit exceeded over 100 characters', async () => {
    const user = userEvent.setup();
    server();
    await renderEditProfile();
    await user.click(screen.getByLabelText('Last Name'));
    await user.paste('x'.repeat(101));
    await user.tab();
    expect(await screen.findByText('Limit exceeded (100 characters)')).toBeInTheDocument();
  });
});

describe('Edit profile: saving', () => {
  it('sends exactly first_name, last_name and phone, then says so', async () => {
    const user = userEvent.setup();
    const saved = { ...profile, first_name: 'Anabel', phone: '+1 202 555 0199' };
    const calls = server({ 'PUT /api/profile/': () => ({ body: (stored = saved) }) }).calls;
    await renderEditProfile();
    await user.type(screen.getByLabelText('First Name'), 'bel');
    await user.clear(screen.getByLabelText('Phone'));
    await user.type(screen.getByLabelText('Phone'), ' +1 202 555 0199 ');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Profile updated successfully')).toBeInTheDocument();
    expect(screen.getByText('Profile updated successfully').closest('[role="status"]')).not.toBeNull();
    expect(writes(calls)).toEqual([
      { method: 'PUT', path: '/api/profile/', body: { first_name: 'Anabel', last_name: 'Lima', phone: '+1 202 555 0199' }, authorization: 'Bearer a' },
    ]);
    // Saved: the form is clean again.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDisabled());
    expect(screen.getByLabelText('Phone')).toHaveValue('+1 202 555 0199');
  });

  it('says Failed to update profile when the server refuses', async () => {
    const user = userEvent.setup();
    server({ 'PUT /api/profile/': () => ({ status: 400, body: { message: 'Mobile number is required', code: 'VALIDATION_FAILED' } }) });
    await renderEditProfile();
    await user.type(screen.getByLabelText('Last Name'), '-Costa');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    const alert = await screen.findByText('Failed to update profile');
    expect(alert.closest('[role="alert"]')).toHaveTextContent('Failed to update profileMobile number is required');
    expect(screen.queryByText('Profile updated successfully')).not.toBeInTheDocument();
    // Nothing was saved: the change is still there to try again.
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeEnabled();
  });
});

describe('Edit profile: picture', () => {
  it('accepts images only and recommends 400x400px', async () => {
    server();
    await renderEditProfile();
    const input = screen.getByLabelText('Choose a picture');
    expect(input).toHaveAttribute('type', 'file');
    expect(input).toHaveAttribute('accept', 'image/png,image/jpeg,image/webp,image/gif');
    expect(input).toHaveAccessibleDescription('Images only (PNG, JPEG, WebP or GIF), recommended 400x400px.');
  });

  it('previews the chosen picture, then uploads it as multipart field `picture` on save', async () => {
    const user = userEvent.setup();
    const calls = server({
      'POST /api/profile/picture/': () => ({ body: (stored = { ...profile, profile_picture: '/media/pictures/u1.webp' }) }),
    }).calls;
    await renderEditProfile();
    const save = screen.getByRole('button', { name: 'Save Changes' });
    expect(save).toBeDisabled();

    await user.upload(screen.getByLabelText('Choose a picture'), picture());
    expect(screen.getByRole('img', { name: 'Preview of your new profile picture' })).toHaveAttribute('src', 'blob:preview-1');
    expect(screen.getByText('me.png')).toBeInTheDocument();
    expect(save).toBeEnabled();
    await user.click(save);

    expect(await screen.findByText('Profile updated successfully')).toBeInTheDocument();
    // Only the picture changed: no PUT, one multipart POST.
    expect(writes(calls).map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/profile/picture/']);
    const upload = writes(calls)[0];
    expect(upload.authorization).toBe('Bearer a');
    expect(upload.body).toBeInstanceOf(FormData);
    const form = upload.body as FormData;
    expect([...form.keys()]).toEqual(['picture']);
    const sent = form.get('picture') as File;
    expect(sent.name).toBe('me.png');
    expect(sent.type).toBe('image/png');
    expect(await sent.text()).toBe('picture bytes');
    // The preview is let go once saved; the server's picture shows.
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:preview-1');
    expect(await screen.findByRole('img', { name: 'Your profile picture' })).toHaveAttribute('src', '/media/pictures/u1.webp');
  });

  it('sends the profile first, then the picture', async () => {
    const user = userEvent.setup();
    const calls = server({
      'PUT /api/profile/': () => ({ body: { ...profile, first_name: 'Anabel' } }),
      'POST /api/profile/picture/': () => ({ body: profile }),
    }).calls;
    await renderEditProfile();
    await user.type(screen.getByLabelText('First Name'), 'bel');
    await user.upload(screen.getByLabelText('Choose a picture'), picture());
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Profile updated successfully')).toBeInTheDocument();
    expect(writes(calls).map((c) => `${c.method} ${c.path}`)).toEqual(['PUT /api/profile/', 'POST /api/profile/picture/']);
    expect(writes(calls)[0].body).toEqual({ first_name: 'Anabel', last_name: 'Lima', phone: '+1 202 555 0143' });
  });

  it('says Failed to update profile when the upload fails, keeping the picture to retry', async () => {
    const user = userEvent.setup();
    server({ 'POST /api/profile/picture/': () => ({ status: 413, body: { message: 'The picture is too large (at most 10 MB).', code: 'PAYLOAD_TOO_LARGE' } }) });
    await renderEditProfile();
    await user.upload(screen.getByLabelText('Choose a picture'), picture());
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    const alert = (await screen.findByText('Failed to update profile')).closest('[role="alert"]');
    expect(alert).toHaveTextContent('Failed to update profileThe picture is too large (at most 10 MB).');
    expect(screen.getByRole('img', { name: 'Preview of your new profile picture' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeEnabled();
  });

  it('revokes a replaced preview, and Cancel clears the preview', async () => {
    const user = userEvent.setup();
    server();
    await renderEditProfile();
    const input = screen.getByLabelText('Choose a picture');
    await user.upload(input, picture('one.png'));
    await user.upload(screen.getByLabelText('Choose a new picture'), picture('two.jpg', 'image/jpeg'));
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:preview-1');
    expect(screen.getByRole('img', { name: 'Preview of your new profile picture' })).toHaveAttribute('src', 'blob:preview-2');

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:preview-2');
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(screen.queryByText('two.jpg')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Choose a picture')).toHaveProperty('value', '');
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
  });

  it('revokes the preview when the page goes away', async () => {
    const user = userEvent.setup();
    server();
    const { unmount } = await renderEditProfile();
    await user.upload(screen.getByLabelText('Choose a picture'), picture());
    expect(URL.revokeObjectURL).not.toHaveBeenCalled();
    unmount();
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:preview-1');
  });

  it('refuses a file that is not an image', async () => {
    const user = userEvent.setup({ applyAccept: false });
    server();
    await renderEditProfile();
    await user.upload(screen.getByLabelText('Choose a picture'), picture('notes.pdf', 'application/pdf'));
    expect(screen.getByText('Please choose a PNG, JPEG, WebP or GIF image.')).toHaveAttribute('role', 'alert');
    expect(screen.getByLabelText('Choose a picture')).toHaveAccessibleDescription(
      'Images only (PNG, JPEG, WebP or GIF), recommended 400x400px. Please choose a PNG, JPEG, WebP or GIF image.',
    );
    expect(URL.createObjectURL).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
  });
});

describe('Edit profile: password', () => {
  async function fillPasswords(user: ReturnType<typeof userEvent.setup>) {
    await user.type(screen.getByLabelText('Current password'), 'old secret');
    await user.type(screen.getByLabelText('New password'), 'new secret');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
  }

  it('is enabled only when both fields are filled', async () => {
    const user = userEvent.setup();
    server();
    await renderEditProfile();
    const button = screen.getByRole('button', { name: 'Update Password' });
    expect(button).toBeDisabled();
    await user.type(screen.getByLabelText('Current password'), 'old secret');
    expect(button).toBeDisabled();
    await user.type(screen.getByLabelText('New password'), 'n');
    expect(button).toBeEnabled();
    await user.clear(screen.getByLabelText('Current password'));
    expect(button).toBeDisabled();
  });

  it("sends old_password and new_password, shows the server's detail and clears the fields", async () => {
    const user = userEvent.setup();
    const calls = server({ 'PUT /api/change/password/': () => ({ body: { message: 'Changed.', detail: 'Your password has been changed.' } }) }).calls;
    await renderEditProfile();
    await fillPasswords(user);
    const done = await screen.findByText('Your password has been changed.');
    expect(done.closest('[role="status"]')).not.toBeNull();
    expect(writes(calls)).toEqual([
      { method: 'PUT', path: '/api/change/password/', body: { old_password: 'old secret', new_password: 'new secret' }, authorization: 'Bearer a' },
    ]);
    expect(screen.getByLabelText('Current password')).toHaveValue('');
    expect(screen.getByLabelText('New password')).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Update Password' })).toBeDisabled();
  });

  it('says Password updated successfully when the server gives no detail', async () => {
    const user = userEvent.setup();
    server({ 'PUT /api/change/password/': () => ({ body: { message: '', detail: '' } }) });
    await renderEditProfile();
    await fillPasswords(user);
    expect(await screen.findByText('Password updated successfully')).toBeInTheDocument();
  });

  it("shows the server's message on failure and keeps the fields", async () => {
    const user = userEvent.setup();
    server({ 'PUT /api/change/password/': () => ({ status: 400, body: { message: 'Your current password is incorrect.', code: 'VALIDATION_FAILED' } }) });
    await renderEditProfile();
    await fillPasswords(user);
    const failure = await screen.findByText('Your current password is incorrect.');
    expect(failure.closest('[role="alert"]')).not.toBeNull();
    expect(screen.getByLabelText('Current password')).toHaveValue('old secret');
  });

  it('prefers the server detail on failure', async () => {
    const user = userEvent.setup();
    server({ 'PUT /api/change/password/': () => ({ status: 400, body: { detail: 'Pick a longer password.', message: 'Invalid.' } }) });
    await renderEditProfile();
    await fillPasswords(user);
    expect(await screen.findByText('Pick a longer password.')).toBeInTheDocument();
    expect(screen.queryByText('Invalid.')).not.toBeInTheDocument();
  });

  it('says Failed to update password when the server says nothing', async () => {
    const user = userEvent.setup();
    server({ 'PUT /api/change/password/': () => ({ status: 500 }) });
    await renderEditProfile();
    await fillPasswords(user);
    expect(await screen.findByText('Failed to update password')).toBeInTheDocument();
  });
});

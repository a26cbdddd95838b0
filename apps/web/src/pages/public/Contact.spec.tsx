import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GENERIC_ERROR } from '../../api/errors';
import { userLoaded } from '../../session/session-slice';
import { fakeServer } from '../../test/fake-server';
import { renderPage } from '../../test/render';
import Contact, { answerTime, confirmation } from './Contact';
import { clearTokens, storeTokens } from '../../session/tokens';
import { ANA } from '../../test/users';

const render = () => renderPage(<Contact />, { path: '/contact' });
const field = (label: string) => screen.getByLabelText(label);
const posts = (server: ReturnType<typeof fakeServer>) => server.calls.filter((c) => c.method === 'POST');

async function fillIn(
  user: ReturnType<typeof userEvent.setup>,
  values: { first?: string; last?: string; email?: string; message?: string },
) {
  if (values.first !== undefined) await user.type(field('First Name'), values.first);
  if (values.last !== undefined) await user.type(field('Last Name'), values.last);
  if (values.email !== undefined) await user.type(field('Email Address'), values.email);
  if (values.message !== undefined) await user.type(field('Messages'), values.message);
}

describe('Contact page', () => {
  it('has the title, the exact subtitle and the four fields', () => {
    render();
    expect(screen.getByRole('heading', { level: 1, name: 'Contact Us' })).toBeInTheDocument();
    expect(
      screen.getByText('Have something in mind you need help with? We’d love to hear your thoughts!'),
    ).toBeInTheDocument();
    expect(field('First Name')).toHaveValue('');
    expect(field('Last Name')).toHaveValue('');
    expect(field('Email Address')).toHaveValue('');
    const message = field('Messages');
    expect(message.tagName).toBe('TEXTAREA');
    expect(message).toHaveAttribute('rows', '5');
    expect(screen.getByRole('button', { name: 'Send Message' })).toBeEnabled();
  });

  it('shows an error only for the field that was touched', async () => {
    const user = userEvent.setup();
    render();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(field('First Name'));
    await user.tab();
    expect(await screen.findByText('Firstname is required')).toBeInTheDocument();
    expect(field('First Name')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('Lastname is required')).not.toBeInTheDocument();
    expect(screen.queryByText('Email is required')).not.toBeInTheDocument();
    expect(screen.queryByText('Message is required')).not.toBeInTheDocument();
  });

  it('gives each field its required message once touched', async () => {
    const user = userEvent.setup();
    render();
    for (const label of ['First Name', 'Last Name', 'Email Address', 'Messages']) {
      await user.click(field(label));
    }
    await user.tab();
    expect(await screen.findByText('Message is required')).toBeInTheDocument();
    expect(screen.getByText('Firstname is required')).toBeInTheDocument();
    expect(screen.getByText('Lastname is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
  });

  it('says "Invalid email" for a malformed address, and clears the error once it is fixed', async () => {
    const user = userEvent.setup();
    render();
    await user.type(field('Email Address'), 'not-an-email');
    await user.tab();
    expect(await screen.findByText('Invalid email')).toBeInTheDocument();
    await user.clear(field('Email Address'));
    await user.type(field('Email Address'), 'jane@example.com');
    await waitFor(() => expect(screen.queryByText('Invalid email')).not.toBeInTheDocument());
  });

  it('says "Limit exceeded" over 100 characters for names and e-mail, over 200 for the message', async () => {
    const user = userEvent.setup();
    render();
    await user.click(field('First Name'));
    await user.paste('a'.repeat(101));
    await user.tab();
    expect(await screen.findByText('Limit exceeded (100 characters)')).toBeInTheDocument();
    await user.clear(field('First Name'));
    await user.paste('a'.repeat(100));
    await waitFor(() => expect(screen.queryByText('Limit exceeded (100 characters)')).not.toBeInTheDocument());

    await user.click(field('Email Address'));
    await user.paste(`${'e'.repeat(89)}@example.com`);
    await user.tab();
    expect(await screen.findByText('Limit exceeded (100 characters)')).toBeInTheDocument();
    await user.clear(field('Email Address'));
    await user.paste(`${'e'.repeat(88)}@example.com`);
    await waitFor(() => expect(screen.queryByText('Limit exceeded (100 characters)')).not.toBeInTheDocument());
    expect(screen.queryByText('Invalid email')).not.toBeInTheDocument();

    await user.click(field('Messages'));
    await user.paste('m'.repeat(200));
    await user.tab();
    expect(screen.queryByText('Limit exceeded (200 characters)')).not.toBeInTheDocument();
    await user.click(field('Messages'));
    await user.paste('m');
    expect(await screen.findByText('Limit exceeded (200 characters)')).toBeInTheDocument();
  });

  it('shows every message on submit and sends nothing', async () => {
    const user = userEvent.setup();
    const server = fakeServer({});
    render();
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Firstname is required')).toBeInTheDocument();
    expect(screen.getByText('Lastname is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Message is required')).toBeInTheDocument();
    expect(posts(server)).toEqual([]);
  });
});

describe('Contact page and the server', () => {
  it('posts exactly the four fields (trimmed), shows the reply and empties the form', async () => {
    const user = userEvent.setup();
    const server = fakeServer({
      'POST /api/contact/': () => ({ body: { message: 'Thank you! Your message has been sent.', priority: false, answer_within_hours: 48 } }),
    });
    render();
    await fillIn(user, {
      first: ' Jane ',
      last: 'Doe',
      email: 'jane@example.com ',
      message: 'I cannot find my uploaded documents.',
    });
    await user.click(screen.getByRole('button', { name: 'Send Message' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Thank you! Your message has been sent. We answer within 2 days.');
    expect(posts(server)).toHaveLength(1);
    expect(posts(server)[0]).toMatchObject({
      path: '/api/contact/',
      body: {
        firstname: 'Jane',
        lastname: 'Doe',
        email: 'jane@example.com',
        message: 'I cannot find my uploaded documents.',
      },
    });
    expect(Object.keys(posts(server)[0]?.body as object).sort()).toEqual(['email', 'firstname', 'lastname', 'message']);
    expect(field('First Name')).toHaveValue('');
    expect(field('Last Name')).toHaveValue('');
    expect(field('Email Address')).toHaveValue('');
    expect(field('Messages')).toHaveValue('');
    // A reset form is pristine again: no error shows for the emptied fields.
    expect(screen.queryByText('Firstname is required')).not.toBeInTheDocument();
  });

  it('says the faster answer time when the reply is marked priority (Plus and Family), signed in with the bearer token', async () => {
    storeTokens({ access: 'a', refresh: 'r' });
    try {
      const user = userEvent.setup();
      const server = fakeServer({
        'POST /api/contact/': () => ({ body: { message: 'Thank you! Your message has been sent.', priority: true, answer_within_hours: 4 } }),
      });
      render();
      await fillIn(user, { first: 'Jane', last: 'Doe', email: 'jane@example.com', message: 'Where is my lab report?' });
      await user.click(screen.getByRole('button', { name: 'Send Message' }));
      expect(await screen.findByRole('status')).toHaveTextContent(
        'Thank you! Your message has been sent. Your plan includes priority support: your message is marked priority and we answer within 4 hours.',
      );
      expect(posts(server)[0]?.authorization).toBe('Bearer a');
    } finally {
      clearTokens();
    }
  });

  it('words answer times in hours or whole days', () => {
    expect(answerTime(1)).toBe('1 hour');
    expect(answerTime(24)).toBe('24 hours');
    expect(answerTime(48)).toBe('2 days');
    expect(answerTime(50)).toBe('50 hours');
    expect(confirmation({ message: 'Sent.' })).toBe('Sent.');
  });

  it('shows a loading state while the message is on its way', async () => {
    const user = userEvent.setup();
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    fakeServer({
      'POST /api/contact/': async () => {
        await answered;
        return { body: { message: 'Sent.' } };
      },
    });
    render();
    await fillIn(user, { first: 'Jane', last: 'Doe', email: 'jane@example.com', message: 'Hello' });
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    const button = await screen.findByRole('button', { name: 'Sending…' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    answer();
    expect(await screen.findByRole('status')).toHaveTextContent('Sent.');
    expect(screen.getByRole('button', { name: 'Send Message' })).toBeEnabled();
  });

  it("shows the server's message in an error dialog and keeps what was typed", async () => {
    const user = userEvent.setup();
    fakeServer({
      'POST /api/contact/': () => ({
        status: 429,
        body: { message: 'Too many messages. Please wait a minute.', code: 'RATE_LIMITED' },
      }),
    });
    render();
    await fillIn(user, { first: 'Jane', last: 'Doe', email: 'jane@example.com', message: 'Hello' });
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Too many messages. Please wait a minute.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Error' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(field('Messages')).toHaveValue('Hello');
    await user.click(screen.getByRole('button', { name: 'Ok' }));
    expect(screen.queryByText('Too many messages. Please wait a minute.')).not.toBeInTheDocument();
  });

  it('shows the generic message when the server gives none', async () => {
    const user = userEvent.setup();
    fakeServer({ 'POST /api/contact/': () => ({ status: 500 }) });
    render();
    await fillIn(user, { first: 'Jane', last: 'Doe', email: 'jane@example.com', message: 'Hello' });
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText(GENERIC_ERROR)).toBeInTheDocument();
  });
});

describe('Contact page for a signed-in user', () => {
  it('fills in the names and e-mail once the user is known, and keeps them after sending', async () => {
    const user = userEvent.setup();
    const server = fakeServer({ 'POST /api/contact/': () => ({ body: { message: 'Sent.' } }) });
    const { store } = render();
    act(() => {
      store.dispatch(userLoaded(ANA));
    });
    expect(field('First Name')).toHaveValue('Ana');
    expect(field('Last Name')).toHaveValue('Lima');
    expect(field('Email Address')).toHaveValue('ana@example.com');
    await user.type(field('Messages'), 'Question about my plan');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Sent.');
    expect(posts(server)[0]?.body).toEqual({
      firstname: 'Ana',
      lastname: 'Lima',
      email: 'ana@example.com',
      message: 'Question about my plan',
    });
    expect(field('First Name')).toHaveValue('Ana');
    expect(field('Messages')).toHaveValue('');
  });

  it('never overwrites what was already typed', async () => {
    const user = userEvent.setup();
    const { store } = render();
    await user.type(field('First Name'), 'Annie');
    act(() => {
      store.dispatch(userLoaded(ANA));
    });
    expect(field('First Name')).toHaveValue('Annie');
    expect(field('Last Name')).toHaveValue('Lima');
  });
});

import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '../../test/render';
import MedicalLicense from './MedicalLicense';

const VERIFIED = 'License verified successfully!';
const NOT_FOUND = 'Medical License Number Not Found, Please Try Again';

beforeEach(() => jest.useFakeTimers());
afterEach(() => {
  act(() => {
    jest.runOnlyPendingTimers();
  });
  jest.useRealTimers();
});

function setup() {
  const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
  renderPage(<MedicalLicense />, { path: '/medical-license' });
  return {
    user,
    input: () => screen.getByLabelText('Medical License Number'),
    proceed: () => screen.getByRole('button', { name: 'Proceed' }),
    goBack: () => screen.getByRole('button', { name: 'Go Back' }),
  };
}

const advance = (ms: number) =>
  act(() => {
    jest.advanceTimersByTime(ms);
  });

describe('Medical license page', () => {
  it('asks for the license number; Proceed is disabled while the field is empty', async () => {
    const { user, input, proceed } = setup();
    expect(screen.getByText('Kindly proceed by entering your license number below.')).toBeInTheDocument();
    expect(input()).toHaveValue('');
    expect(proceed()).toBeDisabled();
    await user.type(input(), '   ');
    expect(proceed()).toBeDisabled();
    await user.type(input(), '1');
    expect(proceed()).toBeEnabled();
  });

  it('verifies 8 or more digits after one second, with Proceed disabled meanwhile', async () => {
    const { user, input, proceed } = setup();
    await user.type(input(), '12345678');
    await user.click(proceed());
    expect(proceed()).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent('Checking your license number…');
    advance(999);
    expect(screen.queryByText(VERIFIED)).not.toBeInTheDocument();
    expect(proceed()).toBeDisabled();
    advance(1);
    expect(screen.getByRole('status')).toHaveTextContent(VERIFIED);
    expect(screen.getByText(VERIFIED)).toHaveClass('text-green-800');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(proceed()).toBeEnabled();
  });

  it.each([
    ['seven digits', '1234567'],
    ['letters', 'AB123456'],
    ['digits with a space inside', '1234 5678'],
  ])('reports %s as not found, in red, as an alert', async (_case, value) => {
    const { user, input, proceed } = setup();
    await user.type(input(), value);
    await user.click(proceed());
    advance(1000);
    expect(screen.getByRole('alert')).toHaveTextContent(NOT_FOUND);
    expect(screen.getByRole('alert')).toHaveClass('text-red-700');
    expect(screen.queryByText(VERIFIED)).not.toBeInTheDocument();
  });

  it('also proceeds with the Enter key', async () => {
    const { user, input } = setup();
    await user.type(input(), '123456789{Enter}');
    advance(1000);
    expect(screen.getByText(VERIFIED)).toBeInTheDocument();
  });

  it('Go Back clears the number and the result', async () => {
    const { user, input, proceed, goBack } = setup();
    await user.type(input(), '1234');
    await user.click(proceed());
    advance(1000);
    expect(screen.getByRole('alert')).toHaveTextContent(NOT_FOUND);
    await user.click(goBack());
    expect(input()).toHaveValue('');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(proceed()).toBeDisabled();
  });

  it('Go Back during the check cancels it', async () => {
    const { user, input, proceed, goBack } = setup();
    await user.type(input(), '12345678');
    await user.click(proceed());
    await user.click(goBack());
    advance(2000);
    expect(input()).toHaveValue('');
    expect(screen.queryByText(VERIFIED)).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it('drops an old result when the number is edited', async () => {
    const { user, input, proceed } = setup();
    await user.type(input(), '12345678');
    await user.click(proceed());
    advance(1000);
    expect(screen.getByText(VERIFIED)).toBeInTheDocument();
    await user.type(input(), 'x');
    expect(screen.queryByText(VERIFIED)).not.toBeInTheDocument();
  });
});

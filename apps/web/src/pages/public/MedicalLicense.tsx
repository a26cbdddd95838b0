import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useMedicalLicenseDisputeMutation, useMedicalLicenseGetQuery, useMedicalLicenseVerifyMutation } from '../../api/api';
import { httpStatus, serverMessage } from '../../api/errors';
import type { ProviderFacts } from '@medfolio/contracts';
import { Button } from '../../components/Button';
import { TextField } from '../../components/fields';
import { refreshSessionNow } from '../../session/refresh-session';
import { useSession } from '../../session/use-session';
import { npiFormatError } from './npi';

export const LICENSE_MESSAGES = {
  verified: 'License verified successfully!',
  notFound: 'Medical License Number Not Found, Please Try Again',
  unavailable: 'We cannot verify licenses right now. Please try again later.',
  signIn: 'Sign in to verify your license: it is checked against the NPI Registry for the name on your account.',
} as const;

/**
 * What each level means for the provider: the registry is public, so a name
 * match is a claim (self-attested); an operator's review makes it verified.
 */
export function levelText(provider: Pick<ProviderFacts, 'verification' | 'review'>): { title: string; text: string } {
  if (provider.verification === 'verified') {
    return { title: 'Verified provider', text: 'Our team confirmed your identity. Patients see you as verified, and links that let verified doctors in give you access at once.' };
  }
  if (provider.review === 'disputed') {
    return {
      title: 'Self-attested provider: claim disputed',
      text: 'Another account says this NPI is theirs. An operator reviews both claims and will contact you by e-mail. Until then you are not verified.',
    };
  }
  return {
    title: 'Self-attested provider (review pending)',
    text:
      'Your NPI and name match the registry, but the registry is public, so this is a claim until our team confirms your identity (we will contact you by e-mail). ' +
      'Until then you can ask patients for access; they see that you are not verified, and they decide. Changing your name on your profile ends the claim.',
  };
}

function Level({ provider }: { provider: ProviderFacts }) {
  const level = levelText(provider);
  return (
    <div className="mt-2 rounded-lg bg-slate-50 p-3 text-sm ring-1 ring-slate-200">
      <p className="font-semibold text-slate-900">{level.title}</p>
      <p className="mt-1 text-slate-700">{level.text}</p>
    </div>
  );
}

type CheckState =
  | { kind: 'unknown' }
  | { kind: 'checking' }
  | { kind: 'valid'; provider: ProviderFacts }
  | { kind: 'invalid'; message: string; disputable?: boolean }
  | { kind: 'disputed'; message: string }
  | { kind: 'signed-out' }
  /** The number is not a well-formed NPI (checked here, before anything is sent). */
  | { kind: 'format'; message: string };

/**
 * /medical-license: a doctor enters their license number (the 10-digit NPI; its format and check digit
 * are checked here first, with a message saying what is wrong) and it is verified
 * against the NPPES NPI Registry for the name on their account (POST /api/medical-license/). Success
 * is green ('License verified successfully!') with what the registry says, and the account becomes
 * a provider (the session is refreshed at once so the role is in the token); a number the registry
 * does not know is red ('Medical License Number Not Found, Please Try Again'); a registry that cannot
 * be reached says so, never "not found". Go Back clears the number and the result.
 * The screen says which level the claim holds (self-attested, review pending;
 * disputed; verified) and what it means, and on a number another account claims (409) offers
 * "Dispute this claim" (POST /api/medical-license/dispute/).
 */
export default function MedicalLicense() {
  const { authenticated } = useSession();
  const [license, setLicense] = useState('');
  const [state, setState] = useState<CheckState>({ kind: 'unknown' });
  const [verify] = useMedicalLicenseVerifyMutation();
  const [dispute, disputing] = useMedicalLicenseDisputeMutation();
  // The claim this account holds now, if any (404: none).
  const current = useMedicalLicenseGetQuery(undefined, { skip: !authenticated });

  const proceed = async (event: FormEvent) => {
    event.preventDefault();
    if (!license.trim() || state.kind === 'checking') return;
    // 10 digits and a matching check digit, or say what is wrong: the registry is asked only about
    // well-formed numbers, so 'Not Found' means a real-looking NPI the registry does not know.
    const formatError = npiFormatError(license.trim());
    if (formatError) {
      setState({ kind: 'format', message: formatError });
      return;
    }
    if (!authenticated) {
      setState({ kind: 'signed-out' });
      return;
    }
    setState({ kind: 'checking' });
    try {
      const reply = await verify({ body: { license_number: license.trim() } }).unwrap();
      await refreshSessionNow();
      setState({ kind: 'valid', provider: reply.provider });
    } catch (failure) {
      const status = httpStatus(failure);
      const message =
        status === 404 ? LICENSE_MESSAGES.notFound : status === 503 || status === 504 || status === undefined ? LICENSE_MESSAGES.unavailable : (serverMessage(failure) ?? LICENSE_MESSAGES.notFound);
      setState({ kind: 'invalid', message, disputable: status === 409 });
    }
  };

  // The real holder of a number another account claims files a dispute.
  const fileDispute = async () => {
    try {
      const reply = await dispute({ body: { license_number: license.trim() } }).unwrap();
      setState({ kind: 'disputed', message: reply.message });
    } catch (failure) {
      setState({ kind: 'invalid', message: serverMessage(failure) ?? LICENSE_MESSAGES.unavailable });
    }
  };

  const goBack = () => {
    setLicense('');
    setState({ kind: 'unknown' });
  };

  const checking = state.kind === 'checking';
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <h1 className="text-2xl font-bold text-slate-900">Medical License</h1>
        <p className="mt-1 text-slate-700">Kindly proceed by entering your license number below.</p>
        <p className="mt-2 text-sm text-slate-600">
          Your NPI (10 digits, the last one a check digit), checked against the national NPI Registry for the name on your account. Then you can ask
          patients who share their summary to see their documents; once our team has confirmed your identity, patients
          see you as verified.
        </p>
        {state.kind === 'unknown' && current.data && (
          <div className="mt-4">
            <p className="text-sm text-slate-700">Your license: {current.data.display_name}</p>
            <Level provider={current.data} />
          </div>
        )}
        <form onSubmit={(event) => void proceed(event)} className="mt-6 space-y-4" noValidate>
          <TextField
            label="Medical License Number"
            inputMode="numeric"
            autoComplete="off"
            value={license}
            readOnly={checking}
            error={state.kind === 'format' ? state.message : undefined}
            onChange={(event) => {
              setLicense(event.target.value);
              // A result belongs to the number it was given for.
              if (state.kind !== 'checking') setState({ kind: 'unknown' });
            }}
          />
          <div>
            <div role="status">
              {checking && <p className="text-slate-700">Checking your license number…</p>}
              {state.kind === 'valid' && (
                <>
                  <p className="font-semibold text-green-800">{LICENSE_MESSAGES.verified}</p>
                  <p className="mt-1 text-sm text-slate-700">
                    {state.provider.display_name}
                    {state.provider.credential && `, ${state.provider.credential}`}
                    {state.provider.specialty && ` · ${state.provider.specialty}`}
                    {state.provider.state && ` (${state.provider.state})`}
                  </p>
                  <Level provider={state.provider} />
                  <p className="mt-1 text-sm">
                    <Link to="/providers/patients" className="font-semibold text-brand-800 underline underline-offset-2">
                      Patients who shared with you
                    </Link>
                  </p>
                </>
              )}
              {state.kind === 'signed-out' && (
                <p className="text-slate-800">
                  {LICENSE_MESSAGES.signIn}{' '}
                  <Link to="/login?next=%2Fmedical-license" className="font-semibold text-brand-800 underline underline-offset-2">
                    Log in
                  </Link>
                </p>
              )}
            </div>
            {state.kind === 'invalid' && (
              <p role="alert" className="font-semibold text-red-700">
                {state.message}
              </p>
            )}
            {state.kind === 'invalid' && state.disputable && (
              <Button variant="secondary" className="mt-2" loading={disputing.isLoading} onClick={() => void fileDispute()}>
                Dispute this claim
              </Button>
            )}
            {state.kind === 'disputed' && (
              <p role="status" className="font-semibold text-green-800">
                {state.message}
              </p>
            )}
          </div>
          <div className="flex gap-3">
            <Button variant="secondary" onClick={goBack} className="flex-1">
              Go Back
            </Button>
            <Button type="submit" disabled={!license.trim()} loading={checking} className="flex-1">
              Proceed
            </Button>
          </div>
        </form>
      </div>
    </div>
  );
}

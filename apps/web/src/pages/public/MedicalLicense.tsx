import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/Button';
import { TextField } from '../../components/fields';

/** The simulated verification time (spec section 9). */
const LICENSE_CHECK_DELAY_MS = 1000;

/** The client-side check (section 5): at least 8 characters, all digits. */
function isValidLicense(value: string): boolean {
  return /^\d{8,}$/.test(value.trim());
}

type CheckState = 'unknown' | 'checking' | 'valid' | 'invalid';

/**
 * /medical-license: a doctor enters a license number. The check is client-side only and takes a
 * simulated second; the result is announced (a success as a status, a failure as an alert).
 */
export default function MedicalLicense() {
  const [license, setLicense] = useState('');
  const [state, setState] = useState<CheckState>('unknown');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const cancel = () => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
  };
  useEffect(() => cancel, []);

  const proceed = (event: FormEvent) => {
    event.preventDefault();
    if (!license.trim() || state === 'checking') return;
    const value = license;
    setState('checking');
    cancel();
    timer.current = setTimeout(() => {
      timer.current = null;
      setState(isValidLicense(value) ? 'valid' : 'invalid');
    }, LICENSE_CHECK_DELAY_MS);
  };

  const goBack = () => {
    cancel();
    setLicense('');
    setState('unknown');
  };

  const checking = state === 'checking';
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <h1 className="text-2xl font-bold text-slate-900">Medical License</h1>
        <p className="mt-1 text-slate-700">Kindly proceed by entering your license number below.</p>
        <form onSubmit={proceed} className="mt-6 space-y-4" noValidate>
          <TextField
            label="Medical License Number"
            inputMode="numeric"
            autoComplete="off"
            value={license}
            readOnly={checking}
            onChange={(event) => {
              setLicense(event.target.value);
              // A result belongs to the number it was given for.
              if (state === 'valid' || state === 'invalid') setState('unknown');
            }}
          />
          <div>
            <div role="status">
              {checking && <p className="text-slate-700">Checking your license number…</p>}
              {state === 'valid' && <p className="font-semibold text-green-800">License verified successfully!</p>}
            </div>
            {state === 'invalid' && (
              <p role="alert" className="font-semibold text-red-700">
                Medical License Number Not Found, Please Try Again
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

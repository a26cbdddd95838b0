import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link } from 'react-router';
import { type ReceiveShlReply, useConnectionsShlReceiveMutation } from '../../api/connections';
import { errorMessage, httpStatus } from '../../api/errors';
import { Button } from '../../components/Button';
import { PasswordField, TextField } from '../../components/fields';
import { Notice } from '../../components/Notice';

const card = 'rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6';

/** What the pasted text's SMART Health Link payload says of itself (read here only to ask for a passcode up front). */
export function linkFlags(text: string): { isLink: boolean; needsPasscode: boolean } {
  const at = text.indexOf('shlink:/');
  if (at < 0 || (at > 0 && text[at - 1] !== '#')) return { isLink: false, needsPasscode: false };
  try {
    const encoded = text.slice(at + 'shlink:/'.length).trim().replace(/-/g, '+').replace(/_/g, '/');
    const payload = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(encoded.padEnd(Math.ceil(encoded.length / 4) * 4, '=')), (c) => c.charCodeAt(0)))) as { flag?: unknown };
    return { isLink: true, needsPasscode: typeof payload.flag === 'string' && payload.flag.includes('P') };
  } catch {
    return { isLink: true, needsPasscode: false };
  }
}

/** True on phones and tablets (a coarse pointer): "Take a photo" opens the back camera there. */
function useTouchDevice(): boolean {
  const [touch, setTouch] = useState(false);
  useEffect(() => setTouch(typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches), []);
  return touch;
}

function ReceivedList({ reply }: { reply: ReceiveShlReply }) {
  return (
    <div className="space-y-3">
      <Notice>
        {reply.imported.length === 1 ? 'Added 1 file' : `Added ${reply.imported.length} files`} from {reply.label ? `“${reply.label}”` : 'the link'} to your
        documents. Your summary and health trends are being updated with them.
      </Notice>
      <ul aria-label="Received from the link" className="divide-y divide-slate-200">
        {reply.imported.map((item) => (
          <li key={item.document_id} className="py-2">
            <p className="break-words font-medium text-slate-900">{item.name}</p>
            <p className="text-sm text-slate-700">
              {item.kind === 'fhir-bundle' ? 'Health records (FHIR Bundle).' : 'SMART Health Card. '}
              {item.kind === 'health-card' &&
                (item.verified_issuer ? (
                  <span className="font-medium text-brand-800">Verified issuer: {item.verified_issuer}</span>
                ) : (
                  <span className="font-medium text-amber-900">
                    Issuer not verified: Medfolio could not check that {item.issuer ?? 'the issuer'} signed this card.
                  </span>
                ))}
            </p>
          </li>
        ))}
      </ul>
      <p className="text-sm">
        <Link to="/" className="font-medium text-brand-800 underline">
          See your documents and summary
        </Link>
      </p>
    </div>
  );
}

/**
 * "Received a link from a clinic?": the patient pastes a SMART Health Link (`shlink:/…` or the
 * viewer address holding one) or picks a picture of its QR code (read in the browser; on phones, a
 * photo taken with the back camera), gives the passcode when the link needs one, and the service adds
 * the link's records to their documents. Each SMART Health Card says whether its issuer was verified.
 */
export function ReceiveLinkPanel() {
  const id = useId();
  const [text, setText] = useState('');
  const [passcode, setPasscode] = useState('');
  const [askPasscode, setAskPasscode] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [passcodeError, setPasscodeError] = useState<string | undefined>(undefined);
  const [reading, setReading] = useState(false);
  const [picture, setPicture] = useState<string | null>(null);
  const [reply, setReply] = useState<ReceiveShlReply | null>(null);
  const [receive, { isLoading }] = useConnectionsShlReceiveMutation();
  const touch = useTouchDevice();
  const passcodeRef = useRef<HTMLInputElement>(null);
  const flags = linkFlags(text.trim());
  const showPasscode = askPasscode || flags.needsPasscode;

  const changeText = (value: string) => {
    setText(value);
    setError(null);
    setReply(null);
    setPasscodeError(undefined);
  };

  const onPicture = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setError(null);
    setReply(null);
    setPicture(null);
    setReading(true);
    try {
      const { readQrImage } = await import('./qr-image');
      const found = await readQrImage(file);
      if (!found) setError('No QR code could be read in that picture. Try a sharper, closer picture, or paste the link.');
      else if (!linkFlags(found).isLink) setError('That QR code does not hold a SMART Health Link.');
      else {
        changeText(found);
        setPicture(file.name);
      }
    } catch {
      setError('That file could not be opened as a picture.');
    } finally {
      setReading(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setPasscodeError(undefined);
    setReply(null);
    const shlink = text.trim();
    if (!shlink) {
      setError('Paste the link, or upload a picture of its QR code.');
      return;
    }
    if (!flags.isLink) {
      setError('This is not a SMART Health Link. Paste the whole link (it starts with shlink:/ or contains #shlink:/).');
      return;
    }
    if (showPasscode && !passcode) {
      setAskPasscode(true);
      setPasscodeError('This link needs a passcode.');
      passcodeRef.current?.focus();
      return;
    }
    try {
      const received = await receive({ body: { shlink, ...(passcode ? { passcode } : {}) } }).unwrap();
      setReply(received);
      setText('');
      setPasscode('');
      setAskPasscode(false);
      setPicture(null);
    } catch (failure) {
      const message = errorMessage(failure);
      if (httpStatus(failure) === 403 && /passcode/i.test(message)) {
        setAskPasscode(true);
        setPasscodeError(message);
        setTimeout(() => passcodeRef.current?.focus(), 0);
      } else setError(message);
    }
  };

  return (
    <section aria-labelledby={`${id}-title`} className={card}>
      <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
        Received a link from a clinic?
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Clinics can give you your records as a SMART Health Link: a QR code or a link starting with <code>shlink:/</code>. Medfolio opens it and
        adds its records to your documents.
      </p>
      <form className="mt-4 space-y-4" onSubmit={submit} noValidate>
        <TextField
          label="SMART Health Link"
          autoComplete="off"
          spellCheck={false}
          maxLength={8192}
          placeholder="shlink:/…"
          hint={picture ? `Read from the QR code in ${picture}.` : 'Paste the whole link, or upload a picture of the QR code.'}
          value={text}
          onChange={(event) => changeText(event.target.value)}
        />
        <div className="flex flex-wrap items-center gap-2">
          <label className="inline-flex min-h-11 cursor-pointer items-center rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100 focus-within:ring-2 focus-within:ring-brand-600">
            Upload a QR image
            <input type="file" accept="image/*" className="sr-only" onChange={onPicture} disabled={reading} />
          </label>
          {touch && (
            <label className="inline-flex min-h-11 cursor-pointer items-center rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100 focus-within:ring-2 focus-within:ring-brand-600">
              Take a photo of the QR code
              <input type="file" accept="image/*" capture="environment" className="sr-only" onChange={onPicture} disabled={reading} />
            </label>
          )}
          {reading && (
            <span role="status" className="text-sm text-slate-600">
              Reading the QR code…
            </span>
          )}
        </div>
        {showPasscode && (
          <PasswordField
            ref={passcodeRef}
            label="Passcode"
            autoComplete="off"
            maxLength={200}
            hint="The clinic gives the passcode separately from the link."
            error={passcodeError}
            value={passcode}
            onChange={(event) => {
              setPasscode(event.target.value);
              setPasscodeError(undefined);
            }}
          />
        )}
        <div aria-live="polite">{error && <Notice tone="error">{error}</Notice>}</div>
        <Button type="submit" loading={isLoading}>
          Add to my documents
        </Button>
      </form>
      {reply && (
        <div className="mt-4" aria-live="polite">
          <ReceivedList reply={reply} />
        </div>
      )}
    </section>
  );
}

import { randomUUID } from 'node:crypto';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { SummaryItem } from '@medfolio/contracts';
import { uploadFiles } from './documents-journey';
import { call, codeFor, type Mailbox } from './journey';
import { waitFor } from './processes';

function check(condition: boolean, what: string, detail?: unknown): void {
  if (!condition) throw new Error(`${what}${detail === undefined ? '' : `: ${JSON.stringify(detail)}`}`);
}

/** A one-page PDF with a text layer: a visit note with a medication list (written for the test). */
export async function medicationListPdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  const lines = ['Primary care visit', 'Medications:', '- Metformin 500 mg by mouth twice daily', '- Lisinopril 10 mg daily', 'Allergies: NKDA'];
  lines.forEach((line, i) => page.drawText(line, { x: 56, y: 770 - i * 18, size: 12, font }));
  return Buffer.from(await pdf.save());
}

export async function signUp(base: string, mailbox: Mailbox, name: string): Promise<{ token: string; id: string }> {
  const email = `${name.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'correct horse battery';
  const registered = await call(base, 'POST', '/api/register/', { first_name: name, phone: '+1 202 555 0143', email, password, date_of_birth: '1980-04-04' });
  check(registered.status === 201, 'register', registered.body);
  await call(base, 'POST', '/api/verify-otp/', { email, otp: await codeFor(mailbox, email) });
  const login = await call<{ access: string }>(base, 'POST', '/api/login/', { email, password });
  check(login.status === 200, 'login', login.body);
  const me = await call<{ id: string }>(base, 'GET', '/api/profile/', undefined, login.body.access);
  return { token: login.body.access, id: me.body.id };
}

/**
 * The summary as the web app uses it: a new patient uploads a visit note (a text PDF) and polls
 * GET /api/summary/?user=<id> until it is ready; the medication is there with its source file and
 * page; nobody else (and nobody signed out) can read it; deleting the document removes the fact.
 */
export async function summaryJourney(base: string, mailbox: Mailbox): Promise<void> {
  const patient = await signUp(base, mailbox, 'Sam');
  const summaryPath = `/api/summary/?user=${patient.id}`;
  const read = () => call<SummaryItem[]>(base, 'GET', summaryPath, undefined, patient.token);

  const empty = await read();
  check(empty.status === 200 && empty.body[0]?.status === 'empty' && empty.body[0].version === 0, 'a new patient has an empty summary', empty.body);

  const upload = await uploadFiles(base, patient.token, [{ name: 'visit-note.pdf', data: await medicationListPdf(), type: 'application/pdf' }]);
  check(upload.status === 201, 'upload', upload.body);
  const documentId = upload.body.documents[0]?.id ?? '';

  const ready = await waitFor('the summary to be ready', async () => {
    const reply = await read();
    const item = reply.body[0];
    return item?.status === 'ready' && item.version >= 1 ? item : undefined;
  });
  const medications = ready.sections.find((s) => s.key === 'medications');
  const metformin = medications?.facts.find((f) => f.text.startsWith('Metformin 500 mg'));
  if (!metformin) throw new Error(`the medication is not in the summary: ${JSON.stringify(ready.sections)}`);
  check(
    metformin.sources.some((s) => s.document_id === documentId && s.filename === 'visit-note.pdf' && s.page === 1),
    'the medication cites its file and page',
    metformin.sources,
  );
  check(ready.summary.includes('**Medications:**\n- '), 'the summary text has the medications section', ready.summary);
  check(ready.documents.some((d) => d.document_id === documentId && d.state === 'read'), 'the document is read', ready.documents);

  const other = await signUp(base, mailbox, 'Kim');
  const foreign = await call(base, 'GET', summaryPath, undefined, other.token);
  check(foreign.status === 404, "another user cannot read the summary", foreign);
  // Not the owner and not a share link: the one plain answer of share links.
  check((foreign.body as { message?: string }).message === 'This link is not valid.', 'the 404 message', foreign.body);
  const anonymous = await call(base, 'GET', summaryPath);
  check(anonymous.status === 404, 'a signed-out caller gets 404', anonymous);

  const hidden = await call<SummaryItem>(base, 'POST', `/api/summary/facts/${metformin.id}/hide/`, { hidden: true }, patient.token);
  check(hidden.status === 200 && !hidden.body.summary.includes('Metformin'), 'hiding a fact removes it from the text', hidden.body);
  const foreignHide = await call(base, 'POST', `/api/summary/facts/${metformin.id}/hide/`, { hidden: false }, other.token);
  check(foreignHide.status === 404, "another user cannot change the summary", foreignHide);

  const deleted = await call(base, 'DELETE', '/api/upload/', { document_id: documentId }, patient.token);
  check(deleted.status === 200, 'delete', deleted.body);
  const after = await waitFor('the summary without the document', async () => {
    const item = (await read()).body[0];
    return item && item.status !== 'processing' && item.documents.length === 0 ? item : undefined;
  });
  const left = after.sections.find((s) => s.key === 'medications')?.facts ?? [];
  check(left.length === 0, 'the medication is gone with its document', left);
}

import { useEffect } from 'react';
import { useFamilyOverviewQuery, type FamilyRecord } from '../api/family';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { canManage, endedNoticeSeen, viewingChanged, viewingEnded, viewingRefreshed, type RecordRole, type ViewedRecord } from '../session/viewing-slice';
import { useDropdown } from './use-dropdown';

/** How the viewer relates to the record, in the banner's words. */
export const ROLE_WORDS: Record<RecordRole, string> = {
  owner: 'owner',
  guardian: 'guardian',
  manage: 'caregiver, can manage',
  view: 'caregiver, view only',
};

/** Whose record this tab shows, and what the viewer may do on it. */
export function useViewing() {
  const record = useAppSelector((s) => s.viewing.record);
  return { record, own: record === null, canManage: canManage(record) };
}

/** Why a control is off while viewing a record read-only (null when it is allowed). */
export function useViewOnlyReason(): string | null {
  const { record, canManage: allowed } = useViewing();
  return allowed || !record ? null : `You can view ${record.first_name}'s record but not change it. Ask the person who manages it for the manage role.`;
}

const asViewed = (record: FamilyRecord): ViewedRecord => ({ patient_id: record.patient_id, first_name: record.first_name, role: record.my_role });

/**
 * The records the user may open (GET /api/family/members/), kept in step with the tab's choice: a
 * record no longer listed (access revoked or expired) ends the view; a changed role is taken over.
 */
function useRecords(): FamilyRecord[] {
  const dispatch = useAppDispatch();
  const authenticated = useAppSelector((s) => s.session.authenticated);
  const viewed = useAppSelector((s) => s.viewing.record);
  const { data } = useFamilyOverviewQuery(undefined, { skip: !authenticated });
  useEffect(() => {
    if (!data || !viewed) return;
    const current = data.records.find((r) => r.patient_id === viewed.patient_id && r.kind !== 'self');
    if (!current) dispatch(viewingEnded());
    else if (current.my_role !== viewed.role || current.first_name !== viewed.first_name) dispatch(viewingRefreshed(asViewed(current)));
  }, [data, viewed, dispatch]);
  return data?.records ?? [];
}

/** The header's "Viewing: Leo" menu: shown only when the user may open more than one record. */
export function RecordSwitcher() {
  const dispatch = useAppDispatch();
  const records = useRecords();
  const viewed = useAppSelector((s) => s.viewing.record);
  const { open, setOpen, container, button, menuId } = useDropdown();

  if (records.length < 2) return null;
  const self = records.find((r) => r.kind === 'self');
  const current = viewed?.first_name ?? self?.first_name ?? 'Me';
  const choose = (record: FamilyRecord) => {
    setOpen(false);
    button.current?.focus();
    const next = record.kind === 'self' ? null : asViewed(record);
    if ((next?.patient_id ?? null) !== (viewed?.patient_id ?? null)) dispatch(viewingChanged(next));
  };
  return (
    <div ref={container} className="relative min-w-0">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((v) => !v)}
        className="flex min-h-11 max-w-[9.5rem] items-center gap-1 rounded-lg border border-slate-300 px-2 text-sm font-semibold text-slate-800 hover:bg-slate-100 sm:max-w-xs sm:px-3"
      >
        <span className="truncate">
          <span className="hidden sm:inline">Viewing: </span>
          <span className="sr-only sm:hidden">Viewing: </span>
          {current}
        </span>
        <span className="sr-only">, choose whose record to show</span>
        <svg viewBox="0 0 20 20" className="h-4 w-4 shrink-0 text-slate-600" aria-hidden="true">
          <path d="M5 7l5 6 5-6z" fill="currentColor" />
        </svg>
      </button>
      {open && (
        <ul id={menuId} aria-label="Whose record to show" className="absolute right-0 z-40 mt-2 w-64 max-w-[calc(100vw-2rem)] overflow-hidden rounded-xl border border-slate-200 bg-white py-1 shadow-lg">
          {records.map((record) => {
            const selected = record.kind === 'self' ? viewed === null : viewed?.patient_id === record.patient_id;
            return (
              <li key={record.patient_id}>
                <button
                  type="button"
                  aria-current={selected ? 'true' : undefined}
                  onClick={() => choose(record)}
                  className={`block w-full px-4 py-2.5 text-left hover:bg-slate-100 ${selected ? 'font-semibold text-brand-800' : 'text-slate-800'}`}
                >
                  {record.first_name} {record.last_name}
                  <span className="block text-xs font-normal text-slate-600">{record.kind === 'self' ? 'Your own record' : ROLE_WORDS[record.my_role]}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

/**
 * On every signed-in screen while the tab shows someone else's record: whose it is and the viewer's
 * role, with the way back; and once, when access to the record just ended, that it did.
 */
export function ViewingBanner() {
  const dispatch = useAppDispatch();
  const viewed = useAppSelector((s) => s.viewing.record);
  const ended = useAppSelector((s) => s.viewing.ended);
  const authenticated = useAppSelector((s) => s.session.authenticated);
  if (!authenticated) return null;
  if (ended) {
    return (
      <div role="alert" className="border-b border-amber-300 bg-amber-50 print:hidden">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-2 text-sm text-amber-950">
          <p>Your access to {ended}&apos;s record has ended. You are back on your own record.</p>
          <button type="button" onClick={() => dispatch(endedNoticeSeen())} className="min-h-11 rounded-md px-2 font-semibold underline underline-offset-4 hover:bg-amber-100">
            Dismiss
          </button>
        </div>
      </div>
    );
  }
  if (!viewed) return null;
  return (
    <div role="status" className="border-b border-brand-600 bg-brand-50 print:hidden">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-2 text-sm text-brand-900">
        <p>
          You are viewing <strong>{viewed.first_name}&apos;s record</strong> ({ROLE_WORDS[viewed.role]}).
        </p>
        <button type="button" onClick={() => dispatch(viewingChanged(null))} className="min-h-11 rounded-md px-2 font-semibold underline underline-offset-4 hover:bg-brand-100">
          Back to my record
        </button>
      </div>
    </div>
  );
}

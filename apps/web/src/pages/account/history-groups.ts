import type { HistoryEntry } from '@medfolio/contracts';

/** Entries that say the same thing on the same day: shown as one line "×n". */
export interface HistoryGroup {
  /** The first (newest) entry's id: stable while the page is shown. */
  id: string;
  /** The newest entry, which the group's line shows. */
  first: HistoryEntry;
  entries: HistoryEntry[];
}

/** The reader's calendar day of an ISO time (their time zone), e.g. '2024-05-06'. */
export function localDay(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.getFullYear()}-${date.getMonth() + 1}-${date.getDate()}`;
}

const sameness = (entry: HistoryEntry) =>
  JSON.stringify([entry.who, entry.actor_name, entry.actor_relation, entry.action, entry.what, entry.outcome, entry.from, entry.entity_id, entry.reason, localDay(entry.when)]);

/**
 * Groups identical entries of one day (same who, what, which document, outcome, reason and
 * address), wherever they are on the page: each group stands where its newest entry is. Every
 * entry stays in its group: nothing of the audit log is dropped, and the page lets the patient open
 * a group to see each one.
 */
export function groupEntries(entries: HistoryEntry[]): HistoryGroup[] {
  const groups: HistoryGroup[] = [];
  const byKey = new Map<string, HistoryGroup>();
  for (const entry of entries) {
    const key = sameness(entry);
    const group = byKey.get(key);
    if (group) group.entries.push(entry);
    else {
      const created = { id: entry.id, first: entry, entries: [entry] };
      byKey.set(key, created);
      groups.push(created);
    }
  }
  return groups;
}

/** 'today', 'yesterday' or the date, for a group's "×12 today". */
export function dayLabel(iso: string, now: Date = new Date()): string {
  const day = localDay(iso);
  if (day === localDay(now.toISOString())) return 'today';
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (day === localDay(yesterday.toISOString())) return 'yesterday';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `on ${new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(date)}`;
}

/**
 * What the entry did, naming the document when there is one: the name comes from the patient's own
 * list (the audit log keeps only ids); a document that is gone is said to be so. `linkLabels` names
 * the patient's share links and hospital connections by id.
 */
export function describeEntry(entry: HistoryEntry, documentNames: ReadonlyMap<string, string> | undefined, linkLabels?: ReadonlyMap<string, string>): string {
  if (entry.entity_type === 'share-link' && entry.entity_id) return describeShareEntry(entry, linkLabels?.get(entry.entity_id));
  // A hospital connection is named from the patient's own list ("Fetched records from Springfield General Hospital").
  if (entry.entity_type === 'connection' && entry.entity_id) {
    const hospital = linkLabels?.get(entry.entity_id);
    return hospital ? entry.what.replace(/\ba hospital or clinic\b/, hospital) : entry.what;
  }
  if (entry.entity_type !== 'document' || !entry.entity_id) return entry.what;
  const name = documentNames?.get(entry.entity_id);
  if (name) return `${entry.what}: ${name}`;
  // A deleted document's name is gone with it; say so, unless the entry is the deletion itself.
  if (!documentNames || entry.action === 'document.delete') return entry.what;
  return `${entry.what} (no longer in your documents)`;
}

/** What happened through a share link, naming it by its label from the patient's own list of links. */
function describeShareEntry(entry: HistoryEntry, label: string | undefined): string {
  if (!label) return entry.what;
  switch (entry.action) {
    case 'summary.shared-view':
      return entry.outcome === 'success' ? `Your summary was viewed through '${label}'` : `Someone tried to open '${label}'`;
    case 'share-link.create':
      return `Made the share link '${label}'`;
    case 'share-link.update':
      return `Changed the share link '${label}'`;
    case 'share-link.revoke':
      return `Revoked the share link '${label}'`;
    case 'share-link.unlock':
      return `Wrong passcode for '${label}'`;
    case 'share-link.locked':
      return `'${label}' was locked after too many wrong passcodes`;
    default:
      return `${entry.what}: '${label}'`;
  }
}

/**
 * An action someone took on the record by proxy (a guardian, a caregiver), as one sentence naming
 * who, how they relate to the record, what they did and for whom: "Ana (caregiver) uploaded
 * lab-results.pdf for Leo". Null for the record's own person, the system, a share link or a doctor.
 */
export function proxySentence(entry: HistoryEntry, documentNames: ReadonlyMap<string, string> | undefined, whose: string, linkLabels?: ReadonlyMap<string, string>): string | null {
  if (!entry.actor_name) return null;
  const relation = entry.actor_relation ? ` (${entry.actor_relation})` : '';
  const name = entry.entity_type === 'document' && entry.entity_id ? documentNames?.get(entry.entity_id) : undefined;
  // "Uploaded a document" + its name reads "uploaded lab-results.pdf".
  const done = name && / a document$/.test(entry.what) ? `${entry.what.replace(/ a document$/, '')} ${name}` : describeEntry(entry, documentNames, linkLabels);
  return `${entry.actor_name}${relation} ${done.charAt(0).toLowerCase()}${done.slice(1)} for ${whose}`;
}

import type { HistoryEntry } from '@medfolio/contracts';
import { dayLabel, describeEntry, groupEntries, proxySentence } from './history-groups';

const entry = (id: string, when: string, overrides: Partial<HistoryEntry> = {}): HistoryEntry => ({
  id,
  when,
  who: 'you',
  actor_name: null,
  actor_relation: null,
  action: 'document.list',
  what: 'Listed documents',
  outcome: 'success',
  from: '127.0.0.1',
  user_agent: null,
  entity_type: 'document',
  entity_id: null,
  reason: null,
  ...overrides,
});

describe('grouping history entries', () => {
  it('merges identical entries of one day where the newest stands, keeping every entry', () => {
    const list = [
      entry('a', '2024-05-06T12:00:03'),
      entry('b', '2024-05-06T12:00:02'),
      entry('c', '2024-05-06T12:00:01', { outcome: 'failure', reason: 'x' }),
      entry('d', '2024-05-06T12:00:00'),
      entry('e', '2024-05-05T12:00:00'),
      entry('f', '2024-05-05T11:00:00', { entity_id: 'doc-1', action: 'document.download-link', what: 'Downloaded a document' }),
      entry('g', '2024-05-05T10:00:00', { entity_id: 'doc-2', action: 'document.download-link', what: 'Downloaded a document' }),
    ];
    const groups = groupEntries(list);
    expect(groups.map((g) => g.entries.map((e) => e.id))).toEqual([['a', 'b', 'd'], ['c'], ['e'], ['f'], ['g']]);
    expect(groups.flatMap((g) => g.entries)).toHaveLength(list.length);
    expect(groups.map((g) => g.first.id)).toEqual(['a', 'c', 'e', 'f', 'g']);
  });

  it('says today, yesterday or the date', () => {
    const now = new Date(2024, 4, 6, 15, 0);
    expect(dayLabel(new Date(2024, 4, 6, 1, 0).toISOString(), now)).toBe('today');
    expect(dayLabel(new Date(2024, 4, 5, 23, 0).toISOString(), now)).toBe('yesterday');
    expect(dayLabel(new Date(2024, 4, 1, 12, 0).toISOString(), now)).toMatch(/^on /);
  });

  it('names a document only from the patient\'s own list', () => {
    const download = entry('x', '2024-05-06T12:00:00', { entity_id: 'd1', action: 'document.download-link', what: 'Downloaded a document' });
    expect(describeEntry(download, new Map([['d1', 'scan.png']]))).toBe('Downloaded a document: scan.png');
    expect(describeEntry(download, new Map())).toBe('Downloaded a document (no longer in your documents)');
    expect(describeEntry(download, undefined)).toBe('Downloaded a document');
    expect(describeEntry({ ...download, action: 'document.delete', what: 'Deleted a document' }, new Map())).toBe('Deleted a document');
    expect(describeEntry(entry('l', '2024-05-06T12:00:00'), new Map())).toBe('Listed documents');
  });
});

describe('hospital connection entries', () => {
  it('names the hospital from the patient\'s own connections, and says "a hospital or clinic" once it is gone', () => {
    const sync = entry('s', '2026-11-27T08:00:00', { entity_type: 'connection', entity_id: 'c1', action: 'connections.connection.sync', what: 'Fetched records from a hospital or clinic' });
    expect(describeEntry(sync, new Map(), new Map([['c1', 'Springfield General Hospital']]))).toBe('Fetched records from Springfield General Hospital');
    expect(describeEntry(sync, new Map(), new Map())).toBe('Fetched records from a hospital or clinic');
  });
});

describe('share-link entries', () => {
  const labels = new Map([['link-1', 'For Dr Lee']]);
  const view = (overrides: Partial<HistoryEntry> = {}) =>
    entry('v', '2026-05-06T12:00:00', {
      who: 'someone with your shared link',
      action: 'summary.shared-view',
      what: 'Your summary was viewed through a shared link',
      entity_type: 'share-link',
      entity_id: 'link-1',
      ...overrides,
    });

  it("names the link by its label: Your summary was viewed through 'For Dr Lee'", () => {
    expect(describeEntry(view(), undefined, labels)).toBe("Your summary was viewed through 'For Dr Lee'");
    expect(describeEntry(view({ outcome: 'denied' }), undefined, labels)).toBe("Someone tried to open 'For Dr Lee'");
    expect(describeEntry(view({ action: 'share-link.revoke', what: 'Revoked a share link', who: 'you' }), undefined, labels)).toBe("Revoked the share link 'For Dr Lee'");
  });

  it("keeps the server's words when the link is not known (yet)", () => {
    expect(describeEntry(view(), undefined, undefined)).toBe('Your summary was viewed through a shared link');
    expect(describeEntry(view({ entity_id: 'link-2' }), undefined, labels)).toBe('Your summary was viewed through a shared link');
  });
});

describe('proxySentence', () => {
  const names = new Map([['d1', 'lab-results.pdf']]);
  it('names who acted by proxy, how they relate to the record, what they did and for whom', () => {
    const upload = entry('p1', '2024-05-06T09:00:00.000Z', { who: 'Ana (caregiver)', actor_name: 'Ana', actor_relation: 'caregiver', action: 'document.upload', what: 'Uploaded a document', entity_type: 'document', entity_id: 'd1' });
    expect(proxySentence(upload, names, 'Leo')).toBe('Ana (caregiver) uploaded lab-results.pdf for Leo');
    const read = entry('p2', '2024-05-06T09:00:00.000Z', { actor_name: 'Gina', actor_relation: 'guardian', action: 'summary.read', what: 'Viewed summary', entity_type: 'summary', entity_id: null });
    expect(proxySentence(read, names, 'Leo')).toBe('Gina (guardian) viewed summary for Leo');
  });
  it('is null for the record’s own person', () => {
    expect(proxySentence(entry('p3', '2024-05-06T09:00:00.000Z'), names, 'Leo')).toBeNull();
  });
  it('keeps a proxy’s entries apart from the person’s own when grouping', () => {
    const own = entry('o', '2024-05-06T09:00:00.000Z');
    const proxy = entry('p', '2024-05-06T09:01:00.000Z', { actor_name: 'Ana', actor_relation: 'caregiver' });
    expect(groupEntries([proxy, own])).toHaveLength(2);
  });
});

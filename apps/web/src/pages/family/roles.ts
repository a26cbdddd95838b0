/** The roles an invitation can give, in plain words (the family page and the invitation page). Guardian: a co-parent, on a child's record. */
export const ROLE_HELP: Record<'view' | 'manage' | 'guardian', { label: string; help: string }> = {
  view: { label: 'View', help: 'Can read and download documents and see the summary. Cannot change anything.' },
  manage: { label: 'Manage', help: 'Can also upload documents, review and confirm the summary, and create or revoke share links.' },
  guardian: { label: 'Guardian', help: 'A second parent or guardian: the same rights as you, including inviting and removing caregivers, until the 18th birthday.' },
};

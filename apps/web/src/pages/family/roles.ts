/** The two roles a caregiver can be given, in plain words (the family page and the invitation page). */
export const ROLE_HELP: Record<'view' | 'manage', { label: string; help: string }> = {
  view: { label: 'View', help: 'Can read and download documents and see the summary. Cannot change anything.' },
  manage: { label: 'Manage', help: 'Can also upload documents, review and confirm the summary, and create or revoke share links.' },
};

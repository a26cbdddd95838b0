/**
 * The post-login destination from ?next= (default "/"). Only paths of this site are honoured, so
 * a crafted link cannot send a user elsewhere after signing in (no "//host" or "https://host").
 */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  return next;
}

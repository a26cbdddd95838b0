/**
 * NATS subject matching: tokens are separated by '.', `*` matches exactly one token and `>`
 * (last token only) matches one or more. The in-process bus routes with it, and the JetStream
 * bus uses it where the server cannot filter (several filter subjects on a server before 2.10).
 */
export function subjectMatches(filter: string, subject: string): boolean {
  const filterTokens = filter.split('.');
  const subjectTokens = subject.split('.');
  for (let i = 0; i < filterTokens.length; i++) {
    const token = filterTokens[i];
    if (token === '>') return subjectTokens.length > i;
    if (i >= subjectTokens.length) return false;
    if (token !== '*' && token !== subjectTokens[i]) return false;
  }
  return filterTokens.length === subjectTokens.length;
}

export function matchesAny(filters: readonly string[], subject: string): boolean {
  return filters.some((filter) => subjectMatches(filter, subject));
}

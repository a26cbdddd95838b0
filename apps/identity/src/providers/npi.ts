/**
 * NPI checks done before anything leaves the server: the format and the check digit.
 * An NPI is 10 digits; its last digit is the Luhn check digit of the first nine prefixed with
 * 80840 (the NPI's card issuer prefix, ISO/IEC 7812), so a typo is caught here, not by the registry.
 */
export const NPI_PATTERN = /^\d{10}$/;

export function isValidNpi(npi: string): boolean {
  if (!NPI_PATTERN.test(npi)) return false;
  return luhnValid(`80840${npi}`);
}

/** Luhn over a digit string whose last digit is the check digit. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Lower-case words of a name without accents or punctuation ("José-María" → ["jose", "maria"]). */
export function nameTokens(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token.length > 0);
}

/**
 * Does the account's name (what the user typed at sign-up: one "Name" field, perhaps with middle
 * names, perhaps first and last apart) match the registry's individual record? Tolerant of case,
 * accents, punctuation, middle names on either side and compound surnames; it requires the
 * registry's first given name and every word of its surname to appear in the account's name, and
 * the account's first word to be the registry's first or middle name (so "Ruiz Ana" for "Ana Ruiz"
 * passes, but "Maria Lopez" for "Ana Ruiz" does not).
 */
export function namesMatch(account: { first: string; last: string }, registry: { first: string; middle?: string; last: string }): boolean {
  const mine = nameTokens(`${account.first} ${account.last}`);
  const first = nameTokens(registry.first);
  const middle = nameTokens(registry.middle ?? '');
  const last = nameTokens(registry.last);
  if (mine.length === 0 || first.length === 0 || last.length === 0) return false;
  const have = new Set(mine);
  if (!have.has(first[0]!)) return false;
  if (!last.every((t) => have.has(t))) return false;
  const given = new Set([...first, ...middle, ...last]);
  return given.has(mine[0]!);
}

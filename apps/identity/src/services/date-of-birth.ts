import { DomainError } from '@medfolio/contracts';

/** "YYYY-MM-DD" that is a real calendar date, not in the future and not before 1900. */
export function checkDateOfBirth(text: string, today = new Date()): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const invalid = () => new DomainError('VALIDATION_FAILED', 'Date of birth is not a real date.', { date_of_birth: ['Date of birth is not a real date.'] });
  if (!match) throw invalid();
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) throw invalid();
  const todayUtc = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  if (date.getTime() > todayUtc) {
    throw new DomainError('VALIDATION_FAILED', 'Date of birth cannot be in the future.', { date_of_birth: ['Date of birth cannot be in the future.'] });
  }
  if (year < 1900) throw new DomainError('VALIDATION_FAILED', 'Date of birth must be after 1900.', { date_of_birth: ['Date of birth must be after 1900.'] });
  return text;
}

import { DomainError } from '@medfolio/contracts';
import type { LicenseReviewService } from './services/license-review.service';

export const LICENSE_REVIEW_USAGE = [
  'Usage: node dist/apps/identity/src/main.js license-review <list | approve NPI | reject NPI | uphold DISPUTE_ID | dismiss DISPUTE_ID> [--operator NAME] [--note TEXT]',
  '  list                 pending claims (self-attested providers) and open disputes, as JSON',
  '  approve NPI          the pending claim on NPI becomes verified (confirm the person out of band first)',
  '  reject NPI           the claim on NPI is rejected: the account loses the provider role, the number is freed',
  '  uphold DISPUTE_ID    the claimant is the real holder: the other account\'s claim is rejected',
  '  dismiss DISPUTE_ID   the claim stands',
  'Every decision needs --operator (or OPERATOR in the environment), recorded in the audit log.',
].join('\n');

interface Print {
  out(line: string): void;
  error(line: string): void;
}

/**
 * The `license-review` command: the operators' review queue of licence claims
 * and disputes. Returns the exit code: 0 done, 1 refused (not found, not pending, disputed, changed
 * meanwhile), 2 usage.
 */
export async function runLicenseReview(reviews: LicenseReviewService, args: readonly string[], env: NodeJS.ProcessEnv, print: Print): Promise<number> {
  const positional: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--operator' || arg === '--note') {
      const value = args[i + 1];
      if (value === undefined) return usage(print, `${arg} needs a value.`);
      options[arg.slice(2)] = value;
      i++;
    } else if (arg.startsWith('--')) {
      return usage(print, `Unknown option ${arg}.`);
    } else {
      positional.push(arg);
    }
  }
  const [action, target] = positional;
  if (action === 'list' && positional.length === 1) {
    print.out(JSON.stringify(await reviews.queue(), null, 2));
    return 0;
  }
  if (!action || !['approve', 'reject', 'uphold', 'dismiss'].includes(action) || !target || positional.length !== 2) return usage(print);
  const operator = (options['operator'] ?? env['OPERATOR'] ?? '').trim();
  if (!/^[\w.@-]{1,60}$/.test(operator)) return usage(print, 'Name yourself with --operator NAME (letters, digits, . _ @ -): the audit log records who decided.');
  const note = (options['note'] ?? '').trim().slice(0, 500);
  try {
    switch (action) {
      case 'approve': {
        const claim = await reviews.approve(operator, target, note);
        print.out(`approved: NPI ${claim.licenseNumber} on account ${claim.userId} is verified`);
        break;
      }
      case 'reject': {
        const claim = await reviews.reject(operator, target, note);
        print.out(`rejected: NPI ${claim.licenseNumber} on account ${claim.userId} (no provider role from its next token)`);
        break;
      }
      case 'uphold': {
        const dispute = await reviews.uphold(operator, target, note);
        print.out(`upheld: dispute ${dispute.id}; the claim of account ${dispute.holderId} on NPI ${dispute.licenseNumber} is rejected, account ${dispute.claimantId} may claim it`);
        break;
      }
      case 'dismiss': {
        const dispute = await reviews.dismiss(operator, target, note);
        print.out(`dismissed: dispute ${dispute.id} on NPI ${dispute.licenseNumber}`);
        break;
      }
    }
    return 0;
  } catch (error) {
    if (error instanceof DomainError && error.code !== 'UNAVAILABLE') {
      print.error(error.message);
      return 1;
    }
    throw error;
  }
}

function usage(print: Print, problem?: string): number {
  if (problem) print.error(problem);
  print.error(LICENSE_REVIEW_USAGE);
  return 2;
}

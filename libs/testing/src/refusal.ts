import { DomainError } from '@medfolio/contracts';

/**
 * The DomainError a promise was refused with, for asserting on its code and message. Throws (so the
 * test fails) when the promise succeeds or fails with anything else.
 */
export async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const outcome = await promise.then(
    () => ({ refused: false as const }),
    (error: unknown) => ({ refused: true as const, error }),
  );
  if (!outcome.refused) throw new Error('expected a refusal, but it succeeded');
  if (!(outcome.error instanceof DomainError))
    throw new Error(`expected a DomainError, got: ${String(outcome.error)}`, { cause: outcome.error });
  return outcome.error;
}

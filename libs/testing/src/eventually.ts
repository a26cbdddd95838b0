/**
 * Waits until `probe` returns something other than undefined (events are asynchronous), polling
 * every `intervalMs`; fails with "Timed out waiting for <what>" after `timeoutMs`.
 */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

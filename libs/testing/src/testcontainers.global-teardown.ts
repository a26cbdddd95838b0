/** Jest globalTeardown: stops the containers the global setup started, if any. */
export default async function globalTeardown(): Promise<void> {
  const containers = (globalThis as { __medfolioContainers?: { stop(): Promise<unknown> }[] }).__medfolioContainers ?? [];
  await Promise.all(containers.map((container) => container.stop()));
}

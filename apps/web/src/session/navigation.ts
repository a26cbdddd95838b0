/**
 * Lets non-React code (the API layer) change the page: the router registers its navigate function
 * at start-up. Before that (and in tests) navigation is recorded for inspection.
 */
type Navigate = (to: string) => unknown;

let navigator: Navigate | null = null;
const pending: string[] = [];

export function setNavigator(navigate: Navigate | null): void {
  navigator = navigate;
  if (navigate) for (const to of pending.splice(0)) navigate(to);
}

/** Goes to `to`; resolves once the router has moved (when it reports that). */
export async function navigateTo(to: string): Promise<void> {
  if (navigator) await navigator(to);
  else pending.push(to);
}

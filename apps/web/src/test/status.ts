import { screen, waitFor } from '@testing-library/react';

/**
 * The live status region (role="status") that says `text`, waited for: a page may show another
 * status first (its loading state while a list is asked for again), which `findByRole('status')`
 * would return at once.
 */
export async function findStatus(text: string | RegExp, timeout = 5000): Promise<HTMLElement> {
  return waitFor(
    () => {
      const found = screen.getAllByRole('status').find((element) => {
        const content = element.textContent ?? '';
        return typeof text === 'string' ? content.includes(text) : text.test(content);
      });
      if (!found) throw new Error(`No status says ${String(text)}; the statuses say: ${screen.queryAllByRole('status').map((e) => JSON.stringify(e.textContent)).join(', ') || 'nothing'}`);
      return found;
    },
    { timeout },
  );
}

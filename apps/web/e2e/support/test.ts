import { test as base, expect } from '@playwright/test';

/**
 * Playwright's `test`, with a `page.goto` that resolves once the app runs the page. A public page
 * arrives prerendered and is painted before the app takes it over; acting on it before then would
 * reach plain HTML (a focus or blur would go unnoticed by the form). Users meet the same: a submit
 * button stays disabled until then. `waitUntil: 'commit'` returns at once, to look at the HTML itself.
 */
export const test = base.extend({
  page: async ({ page }, use) => {
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      if (options?.waitUntil !== 'commit') {
        await page.waitForFunction(() => !document.getElementById('root') || document.documentElement.dataset['app'] === 'ready');
      }
      return response;
    };
    await use(page);
  },
});

export { expect };

import { act, StrictMode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { routes, routerReady } from './app/router';
import { makeStore } from './app/store';
import { PRERENDERED_PATHS, prerender } from './prerender';

// The hydration below runs outside Testing Library, which normally declares this for React.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
beforeEach(() => jest.spyOn(window, 'scrollTo').mockImplementation(() => undefined));

/** Mounts prerendered markup and hydrates it with the app's own route table, as main.tsx does. */
async function hydrate(path: string, markup: string) {
  const container = document.createElement('div');
  container.innerHTML = markup;
  document.body.append(container);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  await routerReady(router);
  const problems: unknown[] = [];
  let root: Root | undefined;
  await act(async () => {
    root = hydrateRoot(
      container,
      <StrictMode>
        <Provider store={makeStore()}>
          <RouterProvider router={router} />
        </Provider>
      </StrictMode>,
      { onRecoverableError: (error) => problems.push(error) },
    );
    // Let the effects that load code on demand (the footer's QR code) settle inside act().
    await new Promise((resolve) => setTimeout(resolve, 50));
  });
  return { container, problems, unmount: () => act(() => root?.unmount()) };
}

describe('prerendered public pages', () => {
  it.each(PRERENDERED_PATHS)('%s renders to HTML without style attributes (the CSP refuses them)', async (path) => {
    const markup = await prerender(path);
    expect(markup).toContain('<h1');
    expect(markup).not.toMatch(/\sstyle="/);
  });

  it('the login page: the form is in the HTML, its submit button disabled until the app takes over', async () => {
    const markup = await prerender('/login');
    expect(markup).toContain('Welcome Back!');
    expect(markup).toMatch(/<button type="submit" disabled=""/);
  });

  it.each(['/', '/login', '/sign-up', '/membership'])('%s hydrates without a mismatch, then the form can be sent', async (path) => {
    const { container, problems, unmount } = await hydrate(path, await prerender(path));
    expect(problems).toEqual([]);
    for (const button of container.querySelectorAll('button[type="submit"]')) expect(button).not.toBeDisabled();
    await unmount();
  });

  it('a mismatch would be reported (the check above can fail)', async () => {
    const markup = (await prerender('/about')).replace('About Medfolio', 'Something else');
    const { problems, unmount } = await hydrate('/about', markup);
    expect(problems).not.toEqual([]);
    await unmount();
  });
});

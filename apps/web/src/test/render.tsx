import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { makeStore } from '../app/store';

/** Renders a route table at `at` inside the app's real store and a memory router. */
export function renderRoutes(routes: RouteObject[], { at = '/', state }: { at?: string; state?: unknown } = {}) {
  const store = makeStore();
  const [pathname, search = ''] = at.split('?');
  const router = createMemoryRouter(routes, { initialEntries: [{ pathname, search: search ? `?${search}` : '', state }] });
  const view = render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { ...view, store, router };
}

/**
 * Renders `element` at `path`. Extra routes let a test see where a page navigates
 * (e.g. { path: '/otp-verify', element: <p>otp page</p> }).
 */
export function renderPage(element: ReactElement, { path = '/', at = path, routes = [] as RouteObject[], state }: { path?: string; at?: string; routes?: RouteObject[]; state?: unknown } = {}) {
  return renderRoutes([{ path, element }, ...routes], { at, state });
}

import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router';
import { makeStore } from './app/store';
import { createAppRouter, routerReady } from './app/router';
import { reloadStalePagesFromBackForwardCache } from './session/back-forward';
import { setNavigator } from './session/navigation';

const store = makeStore();
const router = createAppRouter();
setNavigator((to) => router.navigate(to));
// After sign-out, Back must not bring the account's pages back from the browser's cache.
reloadStalePagesFromBackForwardCache({ signedIn: () => store.getState().session.authenticated });

const container = document.getElementById('root') as HTMLElement;
const app = (
  <StrictMode>
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>
  </StrictMode>
);

if (container.dataset.prerendered) {
  // The gateway sent this page already rendered (src/prerender.tsx): take over that markup once the
  // page's code has loaded, so the first render matches it and nothing on screen is replaced.
  // In a transition, React hydrates in small slices and keeps the page responsive meanwhile (as React
  // Router's own client entry does).
  void routerReady(router).then(() => startTransition(() => void hydrateRoot(container, app)));
} else {
  createRoot(container).render(app);
}

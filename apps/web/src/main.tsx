import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router';
import { makeStore } from './app/store';
import { createAppRouter } from './app/router';
import { setNavigator } from './session/navigation';
import './index.css';

const store = makeStore();
const router = createAppRouter();
setNavigator((to) => router.navigate(to));

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>
  </StrictMode>,
);

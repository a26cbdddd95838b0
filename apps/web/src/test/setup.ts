import '@testing-library/jest-dom/jest-globals';
import { configure } from '@testing-library/react';

// findBy*/waitFor wait up to 5 s (Testing Library's default is 1 s): lazily loaded pages and a
// machine running two Jest workers beside services take longer than a second now and then.
configure({ asyncUtilTimeout: 5000 });

// jsdom has no <dialog> behaviour: open/close enough for components to render their content.
if (typeof HTMLDialogElement !== 'undefined' && !HTMLDialogElement.prototype.showModal) {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
}

import { fakeServer } from './fake-server';

// Every test starts with a server that answers the app's start-up call (tests replace it as needed).
beforeEach(() => {
  fakeServer({
    'GET /api/client-config/': () => ({ body: { google_client_id: null, google_authorization_url: 'http://google.test/o/oauth2/v2/auth' } }),
  });
});

import { reloadStalePagesFromBackForwardCache } from './back-forward';
import { clearTokens, storeTokens } from './tokens';

const show = (persisted: boolean) => window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted }));
const hide = () => window.dispatchEvent(Object.assign(new Event('pagehide'), { persisted: true }));

describe('a page restored from the back/forward cache', () => {
  let signedIn = true;
  let reload: jest.Mock;
  let stop: () => void;

  beforeEach(() => {
    signedIn = true;
    reload = jest.fn();
    storeTokens({ access: 'a1', refresh: 'r1' });
    stop = reloadStalePagesFromBackForwardCache({ signedIn: () => signedIn, reload });
  });
  afterEach(() => {
    stop();
    clearTokens();
  });

  it('is loaded afresh when it was left signed in and the session ended meanwhile', () => {
    hide();
    clearTokens();
    show(true);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('is loaded afresh when someone else signed in meanwhile', () => {
    hide();
    storeTokens({ access: 'a2', refresh: 'r2' });
    show(true);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('stays as it is when the same session goes on, when it was signed out, or when it was not restored', () => {
    hide();
    show(true);
    clearTokens();
    show(false);
    signedIn = false;
    show(true);
    expect(reload).not.toHaveBeenCalled();
  });
});

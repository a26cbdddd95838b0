import { BadRequestException, Body, Controller, Headers, Param, Post, Redirect, UnsupportedMediaTypeException } from '@nestjs/common';

/** A provider name as it may appear in a path (identity's configured names are a subset). */
const PROVIDER = /^[a-z0-9-]{1,40}$/;
/** RFC 6749's error codes are ASCII words; anything else is passed on as a plain refusal. */
const ERROR_CODE = /^[A-Za-z0-9_.-]{1,64}$/;
const MAX_CODE = 2048;
const MAX_STATE = 512;

/**
 * Where the browser goes after a provider's form POST: the web app's callback page with the code
 * and state (or the error) in the query, every value percent-encoded by URLSearchParams. Apple's
 * `user` (the name, at the first sign-in only) and any other field are dropped: the account's
 * name comes from the ID token or the e-mail address.
 */
export function formPostRedirect(provider: string, form: Readonly<Record<string, string>> | undefined): string {
  if (!PROVIDER.test(provider)) throw new BadRequestException('Unknown sign-in provider.');
  const field = (name: string): string | undefined => (form && Object.hasOwn(form, name) && typeof form[name] === 'string' ? form[name] : undefined);
  const code = field('code');
  const state = field('state');
  const error = field('error');
  if (state !== undefined && state.length > MAX_STATE) throw new BadRequestException(`The field 'state' is longer than ${MAX_STATE} characters.`);
  const query = new URLSearchParams();
  if (error !== undefined && error !== '') {
    query.set('error', ERROR_CODE.test(error) ? error : 'access_denied');
  } else {
    if (code === undefined || code === '') throw new BadRequestException('Sign-in failed: the provider sent neither a code nor an error.');
    if (code.length > MAX_CODE) throw new BadRequestException(`The field 'code' is longer than ${MAX_CODE} characters.`);
    query.set('code', code);
  }
  if (state !== undefined && state !== '') query.set('state', state);
  return `/auth/oidc/${provider}/callback?${query.toString()}`;
}

/**
 * POST /api/login-with-oidc/{provider}/callback/ (authOidcFormPostCallback in the route table): an
 * OpenID provider configured with response_mode form_post (Apple, when the e-mail or name is asked
 * for) posts its answer here, as a form, from the browser. Nothing is exchanged or kept: the answer
 * is 303 to the web app's callback page, which checks the state and finishes the sign-in as for a
 * provider that answers in the query. The form body is taken on this path only (restrictRequestBodies).
 */
@Controller('login-with-oidc')
export class OidcFormPostCallbackController {
  @Post(':provider/callback')
  @Redirect(undefined, 303)
  callback(@Param('provider') provider: string, @Headers('content-type') type: string | undefined, @Body() form: Record<string, string> | undefined): { url: string; statusCode: number } {
    // A provider posts a form; a JSON body (parsed by the gateway's JSON parser) is not one.
    if (type !== undefined && type.split(';')[0]?.trim().toLowerCase() !== 'application/x-www-form-urlencoded') {
      throw new UnsupportedMediaTypeException(`This route takes a form (Content-Type: application/x-www-form-urlencoded), not ${type.split(';')[0]?.trim() || 'none'}.`);
    }
    return { url: formPostRedirect(provider, form), statusCode: 303 };
  }
}

import { useClientConfigGetQuery, useAuthOidcProvidersQuery } from '../api/api';
import { startOidcSignIn } from '../session/oidc';

/**
 * "Continue with Apple", "Continue with Microsoft", ...: one button per OpenID Connect provider the
 * server has configured (none when none is, or when the list cannot be read). A full-page redirect
 * to the provider's authorization endpoint, as for Google.
 */
export function OidcButtons({ next = '/' }: { next?: string }) {
  const { data } = useAuthOidcProvidersQuery();
  const { data: config } = useClientConfigGetQuery();
  const providers = data?.providers ?? [];
  if (providers.length === 0) return null;
  return (
    <>
      {/* The Google button draws the "or" line when it is shown. */}
      {config?.google_client_id ? null : (
        <div className="my-6 flex items-center gap-3 text-sm text-slate-600" aria-hidden="true">
          <span className="h-px flex-1 bg-slate-300" /> or <span className="h-px flex-1 bg-slate-300" />
        </div>
      )}
      <div className="mt-3 space-y-3">
        {providers.map((provider) => (
          <button
            key={provider.name}
            type="button"
            onClick={() => void startOidcSignIn({ name: provider.name, authorizationUrl: provider.authorization_url, clientId: provider.client_id, scope: provider.scope, responseMode: provider.response_mode, next })}
            className="flex min-h-11 w-full items-center justify-center gap-3 rounded-lg border border-slate-300 bg-white px-4 py-2 font-semibold text-slate-800 hover:bg-slate-50"
          >
            Continue with {provider.label}
          </button>
        ))}
      </div>
    </>
  );
}

/**
 * Stripe.js, loaded only when the server gives a publishable key (GET /api/client-config/) and only
 * by the checkout page: no Stripe script anywhere else, and the gateway's CSP names Stripe's origins
 * only when a key is configured. The few calls checkout makes are typed here.
 */
export const STRIPE_JS_URL = 'https://js.stripe.com/v3/';

export interface StripeCardElement {
  mount(element: HTMLElement): void;
  destroy(): void;
  on(event: 'change', handler: (event: { error?: { message: string } }) => void): void;
}

export interface BillingDetails {
  name: string;
  email: string;
  address: { line1: string; city: string; postal_code: string };
}

export interface StripeClient {
  elements(): { create(type: 'card', options?: Record<string, unknown>): StripeCardElement };
  confirmCardPayment(
    clientSecret: string,
    data: { payment_method: { card: StripeCardElement; billing_details: BillingDetails } },
  ): Promise<{ error?: { message?: string }; paymentIntent?: { status: string } }>;
}

declare global {
  interface Window {
    Stripe?: (publishableKey: string) => StripeClient;
  }
}

let loading: Promise<StripeClient> | undefined;

/** Adds Stripe's script once and makes the client for this key. */
export function loadStripe(publishableKey: string): Promise<StripeClient> {
  loading ??= new Promise<StripeClient>((resolve, reject) => {
    const ready = () => (window.Stripe ? resolve(window.Stripe(publishableKey)) : reject(new Error('Stripe.js did not load')));
    if (window.Stripe) return ready();
    const script = document.createElement('script');
    script.src = STRIPE_JS_URL;
    script.async = true;
    script.onload = ready;
    script.onerror = () => {
      loading = undefined;
      reject(new Error('Stripe.js could not be loaded'));
    };
    document.head.appendChild(script);
  });
  return loading;
}

import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { useBillingCheckoutMutation, useBillingPlansQuery, useClientConfigGetQuery } from '../../api/api';
import { serverMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { TextField } from '../../components/fields';
import { Notice } from '../../components/Notice';
import { PageLoading } from '../../components/PageLoading';
import { checkoutSchema, type CheckoutForm } from '../../forms/schemas';
import { useSession } from '../../session/use-session';
import { planForCheckout } from '../public/plans';
import { loadStripe, type StripeCardElement, type StripeClient } from './stripe-js';

/** Spec section 8: any failure that is not the card provider's own message. */
export const CHECKOUT_ERROR = 'An error occurred. Please try again.';
export const NOT_CONFIGURED = 'Payments are not configured on this server, so plans cannot be bought here. You stay on the Free plan.';

/** Amounts to the cent, as an invoice writes them ($240.00). */
const cents = (amount: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(amount / 100);

/**
 * /checkout?price_id=…: the plan and period from the price id (unknown or missing: Basic monthly),
 * the billing details, the card (Stripe.js, only when the server has a publishable key), and the
 * order summary with the 8% tax. The plan starts when Stripe confirms the payment (webhook).
 */
export default function Checkout() {
  const [params] = useSearchParams();
  const choice = planForCheckout(params.get('price_id'));
  const { user } = useSession();
  const plans = useBillingPlansQuery();
  const clientConfig = useClientConfigGetQuery();
  const [checkout] = useBillingCheckoutMutation();
  const [processing, setProcessing] = useState(false);
  const [cardError, setCardError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [stripe, setStripe] = useState<StripeClient | null>(null);
  const card = useRef<StripeCardElement | null>(null);
  const cardBox = useRef<HTMLDivElement>(null);

  const configured = plans.data?.payments_configured === true;
  const publishableKey = clientConfig.data?.stripe_publishable_key ?? null;
  const serverPlan = plans.data?.plans.find((p) => p.id === choice.plan.tier);
  const subtotal = serverPlan ? (choice.mode === 'monthly' ? serverPlan.monthly_cents : serverPlan.yearly_cents) : choice.plan.price[choice.mode] * 100;
  const taxPercent = plans.data?.tax_percent ?? 8;
  const tax = Math.round((subtotal * taxPercent) / 100);

  useEffect(() => {
    if (!configured || !publishableKey || !cardBox.current) return;
    let cancelled = false;
    loadStripe(publishableKey).then(
      (client) => {
        if (cancelled || !cardBox.current) return;
        const element = client.elements().create('card', { hidePostalCode: true });
        element.mount(cardBox.current);
        element.on('change', (event) => setCardError(event.error?.message ?? null));
        card.current = element;
        setStripe(client);
      },
      () => setCardError('The card form could not be loaded. Please try again later.'),
    );
    return () => {
      cancelled = true;
      card.current?.destroy();
      card.current = null;
    };
  }, [configured, publishableKey]);

  const { register, handleSubmit, formState, getValues, setValue } = useForm<CheckoutForm>({
    resolver: zodResolver(checkoutSchema),
    mode: 'onTouched',
    defaultValues: { first_name: user?.first_name ?? '', last_name: user?.last_name ?? '', email: user?.email ?? '', address: '', city: '', postal_code: '' },
  });

  // The user may load after the page opens: fill in what is still empty, never over what was typed.
  useEffect(() => {
    if (!user) return;
    const known = { first_name: user.first_name, last_name: user.last_name, email: user.email };
    for (const field of ['first_name', 'last_name', 'email'] as const) {
      if (!getValues(field) && known[field]) setValue(field, known[field]);
    }
  }, [user, getValues, setValue]);

  const onSubmit = handleSubmit(async (form) => {
    setCardError(null);
    setDone(null);
    setProcessing(true);
    try {
      const reply = await checkout({ body: { price_id: choice.priceId, tier: choice.plan.tier, mode: choice.mode } }).unwrap();
      if (reply.id === null) {
        setDone(reply.message);
        return;
      }
      if (!stripe || !card.current) throw new Error('no card form');
      const result = await stripe.confirmCardPayment(reply.id, {
        payment_method: {
          card: card.current,
          billing_details: { name: `${form.first_name} ${form.last_name}`, email: form.email, address: { line1: form.address, city: form.city, postal_code: form.postal_code } },
        },
      });
      if (result.error) setCardError(result.error.message ?? CHECKOUT_ERROR);
      else if (result.paymentIntent?.status === 'succeeded') setDone(`Payment received. Your ${choice.plan.name} plan starts as soon as it is confirmed.`);
      else setCardError(CHECKOUT_ERROR);
    } catch (failure) {
      setCardError(serverMessage(failure) ?? CHECKOUT_ERROR);
    } finally {
      setProcessing(false);
    }
  });

  if (plans.isLoading) return <PageLoading label="Loading checkout…" />;
  const { errors } = formState;
  const canPay = configured && (stripe !== null || publishableKey === null);
  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:py-12">
      <Link to="/membership" className="text-sm font-semibold text-brand-800 underline underline-offset-4">
        Back to plans
      </Link>
      <h1 className="mt-4 text-2xl font-bold text-slate-900 sm:text-3xl">Checkout</h1>
      {!configured && (
        <div className="mt-4">
          <Notice tone="info">{NOT_CONFIGURED}</Notice>
        </div>
      )}
      {done && (
        <div className="mt-4 space-y-2">
          <Notice>{done}</Notice>
          <Link to="/membership" className="text-sm font-semibold text-brand-800 underline underline-offset-4">
            See your membership
          </Link>
        </div>
      )}
      <div className="mt-6 grid gap-8 lg:grid-cols-5">
        <form onSubmit={onSubmit} noValidate className="space-y-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 lg:col-span-3">
          <h2 className="text-lg font-bold text-slate-900">Billing details</h2>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField label="First name" autoComplete="given-name" error={errors.first_name?.message} {...register('first_name')} />
            <TextField label="Last name" autoComplete="family-name" error={errors.last_name?.message} {...register('last_name')} />
          </div>
          <TextField label="Email" type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
          <TextField label="Address" autoComplete="address-line1" error={errors.address?.message} {...register('address')} />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField label="City" autoComplete="address-level2" error={errors.city?.message} {...register('city')} />
            <TextField label="ZIP code" autoComplete="postal-code" error={errors.postal_code?.message} {...register('postal_code')} />
          </div>
          <div>
            <p className="text-sm font-medium text-slate-800">Card</p>
            {configured && publishableKey ? (
              <div ref={cardBox} className="mt-1 rounded-lg border border-slate-300 bg-white px-3 py-3" />
            ) : (
              <p className="mt-1 rounded-lg border border-dashed border-slate-300 px-3 py-3 text-sm text-slate-600">
                {configured ? 'Card entry is not available on this server (no publishable key).' : 'Card entry is off while payments are not configured.'}
              </p>
            )}
          </div>
          {cardError && (
            <p role="alert" className="rounded-lg border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
              {cardError}
            </p>
          )}
          <Button type="submit" loading={processing} disabled={!canPay || processing || done !== null} className="w-full">
            {processing ? 'Processing...' : 'Complete Payment'}
          </Button>
        </form>
        <section aria-labelledby="order-summary" className="h-fit rounded-2xl bg-slate-50 p-6 ring-1 ring-slate-200 lg:col-span-2">
          <h2 id="order-summary" className="text-lg font-bold text-slate-900">
            Order summary
          </h2>
          <dl className="mt-4 space-y-2 text-sm text-slate-800">
            <div className="flex justify-between">
              <dt>Plan</dt>
              <dd className="font-semibold">{choice.plan.name}</dd>
            </div>
            <div className="flex justify-between">
              <dt>Billing period</dt>
              <dd>{choice.mode === 'monthly' ? 'Monthly' : 'Yearly'}</dd>
            </div>
          </dl>
          <ul className="mt-4 list-disc space-y-1 pl-5 text-sm text-slate-700">
            {choice.plan.features.map((feature) => (
              <li key={feature}>{feature}</li>
            ))}
          </ul>
          <dl className="mt-4 space-y-2 border-t border-slate-200 pt-4 text-sm text-slate-800">
            <div className="flex justify-between">
              <dt>Subtotal</dt>
              <dd>{cents(subtotal)}</dd>
            </div>
            <div className="flex justify-between">
              <dt>Tax ({taxPercent}%)</dt>
              <dd>{cents(tax)}</dd>
            </div>
            <div className="flex justify-between text-base font-bold text-slate-900">
              <dt>Total</dt>
              <dd>{cents(subtotal + tax)}</dd>
            </div>
          </dl>
          <p className="mt-4 text-xs text-slate-600">
            By paying you agree to the{' '}
            <Link to="/terms" className="underline">
              terms
            </Link>{' '}
            and the{' '}
            <Link to="/privacy" className="underline">
              privacy policy
            </Link>
            . Plans renew automatically until cancelled.
          </p>
        </section>
      </div>
    </div>
  );
}

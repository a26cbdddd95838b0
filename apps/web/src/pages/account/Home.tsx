import { Link } from 'react-router';
import { useSession } from '../../session/use-session';

/** Good Morning before 12:00, Good Afternoon before 18:00, otherwise Good Evening (local time). */
export function greeting(now: Date = new Date()): string {
  const hour = now.getHours();
  if (hour < 12) return 'Good Morning';
  if (hour < 18) return 'Good Afternoon';
  return 'Good Evening';
}

const icons = {
  profile: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-7 8a7 7 0 0 1 14 0',
  settings: 'M4 6h10M18 6h2M4 12h4M12 12h8M4 18h12M20 18h0M14 4v4M8 10v4M16 16v4',
  history: 'M12 7v5l3 2M3 12a9 9 0 1 0 3-6.7L3 8M3 3v5h5',
  plans: 'M4 7h16v12H4zM4 11h16M8 15h3',
  contact: 'M4 6h16v12H4zM4 7l8 6 8-6',
} as const;

const shortcuts: { to: string; title: string; text: string; icon: keyof typeof icons }[] = [
  { to: '/profile', title: 'Profile', text: 'Your name, contact details and plan.', icon: 'profile' },
  { to: '/edit-profile', title: 'Settings', text: 'Change your name, phone, picture or password.', icon: 'settings' },
  { to: '/history', title: 'Access history', text: 'See who opened or changed your records, and when.', icon: 'history' },
  { to: '/membership', title: 'Plans', text: 'You are on the Free plan. Compare what the others offer.', icon: 'plans' },
  { to: '/contact', title: 'Contact', text: 'A question or a problem? Write to us.', icon: 'contact' },
];

/**
 * The signed-in home screen ("/"). The documents dashboard comes later; for now: the greeting and
 * a way to everything a signed-in patient can already do.
 */
export default function Home() {
  const { user } = useSession();
  const name = user ? [user.first_name, user.last_name].filter(Boolean).join(' ') : '';
  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:py-12">
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">
        {greeting()},{name ? ` ${name}` : ''}
      </h1>
      <p className="mt-2 text-slate-600">Welcome to your Medfolio account.</p>

      <section aria-labelledby="home-shortcuts" className="mt-8">
        <h2 id="home-shortcuts" className="text-lg font-semibold text-slate-900">
          Your account
        </h2>
        <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {shortcuts.map((item) => (
            <li
              key={item.to}
              className="relative flex gap-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 transition-shadow has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-600 hover:shadow-md"
            >
              <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
                <svg viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
                  <path d={icons[item.icon]} />
                </svg>
              </span>
              <div>
                <h3 className="font-semibold text-slate-900">
                  {/* The link covers the whole card (after:inset-0); its name stays the short title. */}
                  <Link to={item.to} className="rounded outline-none after:absolute after:inset-0 after:rounded-2xl hover:text-brand-800 hover:underline">
                    {item.title}
                  </Link>
                </h3>
                <p className="mt-1 text-sm text-slate-600">{item.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

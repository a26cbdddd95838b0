import { Link } from 'react-router';
import { useSession } from '../../session/use-session';
import { ActionButtons } from './dashboard/ActionButtons';
import { DocumentsSection } from './dashboard/DocumentsSection';
import { UploadPanel } from './dashboard/UploadPanel';

/** Good Morning before 12:00, Good Afternoon before 18:00, otherwise Good Evening (local time). */
export function greeting(now: Date = new Date()): string {
  const hour = now.getHours();
  if (hour < 12) return 'Good Morning';
  if (hour < 18) return 'Good Afternoon';
  return 'Good Evening';
}

/** Pages a signed-in patient reaches from here besides the header menu (the profile has no other link). */
const accountLinks = [
  { to: '/profile', label: 'Profile' },
  { to: '/edit-profile', label: 'Settings' },
  { to: '/history', label: 'Access history' },
  { to: '/membership', label: 'Plans' },
  { to: '/contact', label: 'Contact' },
];

/**
 * The signed-in home screen ("/"), the documents dashboard of spec section 2: the greeting, Add
 * Documents, the three sharing actions and the documents themselves.
 */
export default function Home() {
  const { user } = useSession();
  const name = user ? [user.first_name, user.last_name].filter(Boolean).join(' ') : '';
  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:py-12">
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">
        {greeting()},{name ? ` ${name}` : ''}
      </h1>

      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <UploadPanel />
        </div>
        <ActionButtons userId={user?.id ?? null} />
      </div>

      <div className="mt-6">
        <DocumentsSection />
      </div>

      <nav aria-label="Your account" className="mt-8 text-sm">
        <ul className="flex flex-wrap gap-x-2 gap-y-1">
          {accountLinks.map((item) => (
            <li key={item.to}>
              <Link to={item.to} className="inline-flex min-h-11 items-center rounded px-2 font-medium text-brand-800 underline-offset-2 hover:underline">
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}

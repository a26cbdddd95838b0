import { Link } from 'react-router';
import { useSession } from '../../session/use-session';
import { useViewing, useViewOnlyReason } from '../../components/Viewing';
import { Notice } from '../../components/Notice';
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
  { to: '/trends', label: 'Health trends' },
  { to: '/connections', label: 'Hospitals & clinics' },
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
  // Someone else's record (a child's, or one shared with a caregiver): their documents, their summary.
  const { record } = useViewing();
  const viewOnly = useViewOnlyReason();
  const name = user ? [user.first_name, user.last_name].filter(Boolean).join(' ') : '';
  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:py-12">
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">
        {record ? `${record.first_name}'s documents` : `${greeting()},${name ? ` ${name}` : ''}`}
      </h1>

      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <div className="lg:col-span-2">
          {viewOnly ? <Notice tone="info">{viewOnly} Uploading and deleting are off.</Notice> : <UploadPanel />}
        </div>
        <ActionButtons userId={record?.patient_id ?? user?.id ?? null} />
      </div>

      <section aria-labelledby="home-trends" className="mt-6 flex flex-col gap-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:flex-row sm:items-center sm:justify-between sm:p-6">
        <div>
          <h2 id="home-trends" className="text-lg font-semibold text-slate-900">
            Health trends
          </h2>
          <p className="mt-1 text-sm text-slate-700">Your lab results and vital signs over time, out-of-range values marked, each linked to its document.</p>
        </div>
        <Link
          to="/trends"
          className="inline-flex min-h-11 shrink-0 items-center justify-center rounded-lg border border-brand-700 bg-white px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50"
        >
          See your health trends
        </Link>
      </section>

      <section aria-labelledby="home-connections" className="mt-6 flex flex-col gap-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:flex-row sm:items-center sm:justify-between sm:p-6">
        <div>
          <h2 id="home-connections" className="text-lg font-semibold text-slate-900">
            Hospitals and clinics
          </h2>
          <p className="mt-1 text-sm text-slate-700">Bring your records in from a hospital or clinic's patient portal: you sign in on their site.</p>
        </div>
        <Link
          to="/connections"
          className="inline-flex min-h-11 shrink-0 items-center justify-center rounded-lg border border-brand-700 bg-white px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50"
        >
          Connect a hospital or clinic
        </Link>
      </section>

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

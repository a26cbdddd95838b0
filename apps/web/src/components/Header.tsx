import { Link, NavLink } from 'react-router';
import { useSession } from '../session/use-session';
import { Logo } from './Logo';
import { RecordSwitcher } from './Viewing';
import { useDropdown } from './use-dropdown';

const menuItems = [
  { to: '/profile', label: 'Profile' },
  { to: '/trends', label: 'Health trends' },
  { to: '/family', label: 'Family' },
  { to: '/connections', label: 'Hospitals & clinics' },
  { to: '/edit-profile', label: 'Settings' },
  { to: '/membership', label: 'Billing & Plans' },
  { to: '/history', label: 'Access history' },
  { to: '/contact', label: 'Contact Support' },
];

/** The user menu: avatar, first name (hidden on small screens) and a dropdown. Shown once user info exists. */
function UserMenu() {
  const { user, signOut } = useSession();
  const { open, setOpen, container, button, menuId } = useDropdown();

  if (!user) return null;
  const initial = (user.first_name || user.email).charAt(0).toUpperCase();
  return (
    <div ref={container} className="relative">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((v) => !v)}
        className="flex min-h-11 items-center gap-2 rounded-full py-1 pl-1 pr-3 hover:bg-slate-100"
      >
        {user.profile_picture ? (
          <img src={user.profile_picture} alt="" className="h-9 w-9 rounded-full object-cover" />
        ) : (
          <span aria-hidden="true" className="flex h-9 w-9 items-center justify-center rounded-full bg-brand-700 font-bold text-white">
            {initial}
          </span>
        )}
        <span className="hidden font-medium text-slate-800 sm:inline">{user.first_name}</span>
        <span className="sr-only">Account menu</span>
        <svg viewBox="0 0 20 20" className="h-4 w-4 text-slate-600" aria-hidden="true">
          <path d="M5 7l5 6 5-6z" fill="currentColor" />
        </svg>
      </button>
      {open && (
        <ul id={menuId} className="absolute right-0 z-40 mt-2 w-56 overflow-hidden rounded-xl border border-slate-200 bg-white py-1 shadow-lg">
          {menuItems.map((item) => (
            <li key={item.to}>
              <Link to={item.to} onClick={() => setOpen(false)} className="block px-4 py-2.5 text-slate-800 hover:bg-slate-100">
                {item.label}
              </Link>
            </li>
          ))}
          <li className="border-t border-slate-200">
            <button
              type="button"
              onClick={() => {
                setOpen(false);
                void signOut();
              }}
              className="block w-full px-4 py-2.5 text-left text-slate-800 hover:bg-slate-100"
            >
              Sign out
            </button>
          </li>
        </ul>
      )}
    </div>
  );
}

const navClass = ({ isActive }: { isActive: boolean }) =>
  `whitespace-nowrap rounded-md px-2 py-2 text-sm font-semibold sm:px-3 ${isActive ? 'text-brand-800 underline underline-offset-4' : 'text-slate-700 hover:text-brand-800'}`;

export function Header() {
  const { authenticated } = useSession();
  return (
    <header className="border-b border-slate-200 bg-white print:hidden">
      <nav aria-label="Main" className="mx-auto flex max-w-6xl items-center justify-between gap-2 px-4 py-3">
        <Logo />
        {authenticated ? (
          <div className="flex min-w-0 items-center gap-2">
            <RecordSwitcher />
            <UserMenu />
          </div>
        ) : (
          <div className="flex items-center sm:gap-1">
            <NavLink to="/contact" className={navClass}>
              Contact
            </NavLink>
            <NavLink to="/login" className={navClass}>
              Login
            </NavLink>
            <Link to="/sign-up" className="ml-1 whitespace-nowrap rounded-lg bg-brand-700 px-2.5 py-2 text-sm font-semibold text-white hover:bg-brand-800 sm:px-3">
              Sign Up
            </Link>
          </div>
        )}
      </nav>
    </header>
  );
}

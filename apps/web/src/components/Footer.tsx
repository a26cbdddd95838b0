import { Link } from 'react-router';
import { QrCode } from './SiteQrCode';

const linkClass = 'rounded text-slate-300 hover:text-white hover:underline';

/** The footer's link lists: [path, label]. */
type FooterLink = readonly [to: string, label: string];

const COMPANY_LINKS: readonly FooterLink[] = [
  ['/', 'Home'],
  ['/about', 'About'],
  ['/contact', 'Contact'],
  ['/privacy', 'Privacy policy'],
  ['/terms', 'Terms of Services'],
];
const PRODUCT_LINKS: readonly FooterLink[] = [
  ['/membership', 'Pricing'],
  ['/faq', 'FAQs'],
];

/** One titled list of links in the footer, named by its heading. */
function FooterLinks({ id, title, links }: { id: string; title: string; links: readonly FooterLink[] }) {
  return (
    <nav aria-labelledby={id}>
      <h2 id={id} className="text-sm font-bold tracking-wider text-white">
        {title}
      </h2>
      <ul className="mt-3 space-y-2 text-sm">
        {links.map(([to, label]) => (
          <li key={to}>
            <Link className={linkClass} to={to}>
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function Footer() {
  const site = typeof window === 'undefined' ? '/' : `${window.location.origin}/`;
  return (
    <footer className="bg-slate-900 text-slate-300 print:hidden">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <Link to="/" className="text-xl font-bold text-white">
            Medfolio
          </Link>
          <p className="mt-2 text-sm">Your medical history, one tap away.</p>
        </div>
        <FooterLinks id="footer-company" title="COMPANY" links={COMPANY_LINKS} />
        <FooterLinks id="footer-product" title="PRODUCT" links={PRODUCT_LINKS} />
        <div>
          <h2 className="text-sm font-bold tracking-wider text-white">DOWNLOAD</h2>
          <div className="mt-3">
            <QrCode value={site} size={100} label="QR code of the Medfolio website" />
          </div>
        </div>
      </div>
      <p className="border-t border-slate-800 py-4 text-center text-sm">© Copyright 2024. All rights reserved</p>
    </footer>
  );
}

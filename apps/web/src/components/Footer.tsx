import { Link } from 'react-router';
import { QrCode } from './SiteQrCode';

const linkClass = 'rounded text-slate-300 hover:text-white hover:underline';

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
        <nav aria-labelledby="footer-company">
          <h2 id="footer-company" className="text-sm font-bold tracking-wider text-white">
            COMPANY
          </h2>
          <ul className="mt-3 space-y-2 text-sm">
            <li><Link className={linkClass} to="/">Home</Link></li>
            <li><Link className={linkClass} to="/about">About</Link></li>
            <li><Link className={linkClass} to="/contact">Contact</Link></li>
            <li><Link className={linkClass} to="/privacy">Privacy policy</Link></li>
            <li><Link className={linkClass} to="/terms">Terms of Services</Link></li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-product">
          <h2 id="footer-product" className="text-sm font-bold tracking-wider text-white">
            PRODUCT
          </h2>
          <ul className="mt-3 space-y-2 text-sm">
            <li><Link className={linkClass} to="/membership">Pricing</Link></li>
            <li><Link className={linkClass} to="/faq">FAQs</Link></li>
          </ul>
        </nav>
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

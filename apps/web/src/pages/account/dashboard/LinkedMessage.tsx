import { Fragment } from 'react';
import { Link } from 'react-router';

/**
 * The app's own pages a server message may point to ("…: see /membership."), with the words shown
 * for each. The API keeps its plain-text message (other clients and e-mails read the same text);
 * the web turns these paths, and only these, into links, so a message cannot add any other link.
 */
export const MESSAGE_LINKS: Readonly<Record<string, string>> = {
  '/membership': 'plans and pricing',
};

const PATTERN = new RegExp(`(${Object.keys(MESSAGE_LINKS).map((path) => path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})(?![\\w/-])`, 'g');

/** A server message with its known app paths rendered as links (onNavigate: e.g. close the dialog). */
export function LinkedMessage({ text, onNavigate }: { text: string; onNavigate?: () => void }) {
  const parts = text.split(PATTERN);
  return (
    <>
      {parts.map((part, index) => {
        const label = index % 2 === 1 ? MESSAGE_LINKS[part] : undefined;
        return label ? (
          <Link key={index} to={part} className="font-semibold text-brand-800 underline hover:text-brand-900" onClick={onNavigate}>
            {label}
          </Link>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        );
      })}
    </>
  );
}

import type { ReactNode } from 'react';

/**
 * A small line icon drawn inline (24×24 view box, round strokes in the text colour, nothing fetched):
 * decorative, so hidden from assistive technology. The paths are its children.
 */
export function StrokeIcon({ children, className = 'h-6 w-6' }: { children: ReactNode; className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      {children}
    </svg>
  );
}

import { useEffect, useState } from 'react';

/**
 * A QR code drawn in the browser (uqr, loaded on demand) as inline SVG: nothing is fetched from a
 * third-party image service, so it works offline and under the strict Content-Security-Policy.
 * Inline SVG shapes, unlike an image, never count as the page's largest paint, so a QR code that
 * appears after the page has painted does not make the page look slower than it is.
 */
export function QrCode({ value, size, label }: { value: string; size: number; label: string }) {
  const [modules, setModules] = useState<boolean[][] | null>(null);
  useEffect(() => {
    let live = true;
    void import('uqr').then(({ encode }) => {
      if (live) setModules(encode(value, { border: 1 }).data);
    });
    return () => {
      live = false;
    };
  }, [value]);
  if (!modules) {
    // Sized by attributes, not a style attribute: the page may arrive prerendered, and the strict CSP
    // refuses inline style attributes in HTML.
    return <svg role="img" aria-label={label} width={size} height={size} className="block rounded bg-slate-200" />;
  }
  const count = modules.length;
  const dark = modules.flatMap((row, y) => row.map((on, x) => (on ? `M${x} ${y}h1v1h-1z` : ''))).join('');
  return (
    <svg role="img" aria-label={label} width={size} height={size} viewBox={`0 0 ${count} ${count}`} shapeRendering="crispEdges" className="block rounded bg-white">
      <rect width={count} height={count} fill="#fff" />
      <path d={dark} fill="#000" />
    </svg>
  );
}

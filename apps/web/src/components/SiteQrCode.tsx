import { useEffect, useState } from 'react';

/**
 * A QR code drawn in the browser (uqr, loaded on demand): nothing is fetched from a third-party
 * image service, so it works offline and under the strict Content-Security-Policy.
 */
export function QrCode({ value, size, label }: { value: string; size: number; label: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('uqr').then(({ renderSVG }) => {
      if (live) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(value, { border: 1 }))}`);
    });
    return () => {
      live = false;
    };
  }, [value]);
  return src ? (
    <img src={src} width={size} height={size} alt={label} className="rounded bg-white" />
  ) : (
    <span role="img" aria-label={label} style={{ width: size, height: size }} className="block rounded bg-slate-200" />
  );
}

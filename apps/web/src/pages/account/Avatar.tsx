/** The user's picture, or the first letter of their first name (e-mail as a fallback) on a brand disc. */
export function Avatar({ src, name, alt, className = 'h-24 w-24 text-4xl' }: { src: string | null | undefined; name: string; alt: string; className?: string }) {
  if (src) return <img src={src} alt={alt} className={`shrink-0 rounded-full object-cover ring-1 ring-slate-200 ${className}`} />;
  return (
    <span aria-hidden="true" className={`flex shrink-0 items-center justify-center rounded-full bg-brand-700 font-bold text-white ${className}`}>
      {name.trim().charAt(0).toUpperCase() || '?'}
    </span>
  );
}

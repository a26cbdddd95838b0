import { StrokeIcon } from '../../../components/StrokeIcon';
import type { FileKind } from './files';

/** Small inline SVG icons (no icon font, nothing fetched): decorative, hidden from assistive technology. */
const paths = {
  upload: 'M12 16V4m0 0L7 9m5-5 5 5M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3',
  download: 'M12 4v12m0 0-5-5m5 5 5-5M4 20h16',
  trash: 'M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3',
  list: 'M8 6h12M8 12h12M8 18h12M4 6h.01M4 12h.01M4 18h.01',
  grid: 'M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM13 13h7v7h-7z',
  qr: 'M4 4h6v6H4zM14 4h6v6h-6zM4 14h6v6H4zM14 14h2v2h-2zM18 14h2M14 18h2v2M18 18h2v2',
  wallet: 'M4 7h14a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H4zM4 7V6a2 2 0 0 1 2-2h10M16 13h.01',
  summary: 'M7 3h7l5 5v13H7zM14 3v5h5M10 13h6M10 17h6',
  search: 'M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14zM20 20l-4-4',
} as const;

export type IconName = keyof typeof paths;

export function Icon({ name, className = 'h-5 w-5' }: { name: IconName; className?: string }) {
  return (
    <StrokeIcon className={className}>
      <path d={paths[name]} />
    </StrokeIcon>
  );
}

const kindStyle: Record<FileKind, { label: string; color: string }> = {
  pdf: { label: 'PDF', color: 'text-red-700' },
  word: { label: 'DOC', color: 'text-blue-700' },
  image: { label: 'IMG', color: 'text-brand-700' },
  other: { label: 'FILE', color: 'text-slate-600' },
};

/** A document icon by type (pdf, Word, image, anything else): a page with a folded corner and a tag. */
export function FileIcon({ kind, className = 'h-10 w-10' }: { kind: FileKind; className?: string }) {
  const { label, color } = kindStyle[kind];
  return (
    <svg viewBox="0 0 40 48" className={`${className} ${color}`} aria-hidden="true" data-icon={kind}>
      <path d="M6 2h20l10 10v32a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2z" fill="white" stroke="currentColor" strokeWidth="2" />
      <path d="M26 2v10h10" fill="none" stroke="currentColor" strokeWidth="2" />
      {kind === 'image' ? (
        <path d="M10 36l7-9 5 6 3-4 6 7z" fill="currentColor" />
      ) : (
        <>
          <rect x="2" y="24" width="30" height="13" rx="2" fill="currentColor" />
          <text x="17" y="34" textAnchor="middle" fontSize="9" fontWeight="700" fontFamily="system-ui, sans-serif" fill="white">
            {label}
          </text>
        </>
      )}
    </svg>
  );
}

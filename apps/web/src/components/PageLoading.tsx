import { Spinner } from './Spinner';

export function PageLoading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div role="status" className="flex min-h-[40vh] items-center justify-center gap-3 text-slate-600">
      <Spinner className="h-6 w-6" />
      <span>{label}</span>
    </div>
  );
}

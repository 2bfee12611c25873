import { LoaderCircle } from 'lucide-react';

/** A turning ring beside a busy label; decorative, so the label says what is happening. */
export function Spinner({ className = 'size-4' }: { className?: string }) {
  return <LoaderCircle aria-hidden="true" className={`shrink-0 animate-spin ${className}`} />;
}

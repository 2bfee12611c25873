/** Shown while a lazily loaded screen's code arrives. */
export function PageFallback() {
  return (
    <div role="status" aria-live="polite" className="mx-auto max-w-3xl px-6 py-16 text-ink-muted">
      Loading…
    </div>
  );
}

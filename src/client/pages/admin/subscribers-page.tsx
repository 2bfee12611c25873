import { SubscribersPanel } from '../../features/list/subscribers-panel';

/** The mailing list's subscribers (DESIGN.md "The mailing list"). */
export function SubscribersPage() {
  return (
    <section aria-labelledby="admin-subscribers-heading">
      <div className="mb-6">
        <h2 id="admin-subscribers-heading" className="text-2xl font-semibold text-sage-800">
          Subscribers
        </h2>
        <p className="mt-1 text-ink-muted">
          Everyone who asked for your emails, with the proof of their consent. Nobody joins without
          confirming.
        </p>
      </div>
      <SubscribersPanel />
    </section>
  );
}

import { paths } from '../../../shared/paths';
import { useFetched } from '../../lib/use-fetched';
import { Link, useLocation } from '../../routing/router';
import { RichTextEditor } from '../../features/admin-tables/rich-text-editor';
import { BodyEditorProvider, type RenderBodyEditor } from '../../features/broadcasts/body-editor';
import { BroadcastsPanel } from '../../features/broadcasts/broadcasts-panel';
import { SenderLine } from '../../features/broadcasts/sender-missing-notice';
import { SequencePanel } from '../../features/broadcasts/sequence-panel';
import { storeAdminClient } from '../../features/store/store-admin-client';

type View = 'broadcasts' | 'sequence';

const renderRichText: RenderBodyEditor = (props) => <RichTextEditor {...props} />;

/** The page's two views, kept in the address (`?view=sequence`). */
function ViewTabs({ view }: { view: View }) {
  const tab = (name: View, label: string) => (
    <Link
      to={name === 'sequence' ? `${paths.adminBroadcasts}?view=sequence` : paths.adminBroadcasts}
      aria-current={view === name ? 'page' : undefined}
      className={`rounded-lg px-3.5 py-2 text-sm font-medium no-underline hover:no-underline ${
        view === name
          ? 'bg-sage-700 text-white'
          : 'border border-sand-300 bg-white text-sage-800 hover:bg-sand-100'
      }`}
    >
      {label}
    </Link>
  );
  return (
    <nav aria-label="Email views" className="flex flex-wrap gap-2">
      {tab('broadcasts', 'Broadcasts')}
      {tab('sequence', 'Follow-up sequence')}
    </nav>
  );
}

/**
 * The owner writes to the list (DESIGN.md "The mailing list"): broadcasts to every confirmed
 * subscriber, and the follow-up sequence each one gets after confirming; both in the admin's
 * rich-text editor, measured in purchases.
 */
export function BroadcastsPage() {
  const { search } = useLocation();
  const view: View =
    new URLSearchParams(search).get('view') === 'sequence' ? 'sequence' : 'broadcasts';
  // The live store says who sends (every list email needs it) and the currency of revenue.
  const store = useFetched('store', () => storeAdminClient.load());
  const live = store.data?.published.content;
  const currency = live?.product.currency ?? null;
  return (
    <section aria-labelledby="admin-broadcasts-heading" className="max-w-5xl space-y-6">
      <div>
        <h2 id="admin-broadcasts-heading" className="text-2xl font-semibold text-sage-800">
          Broadcasts
        </h2>
        <p className="mt-1 text-ink-muted">
          Write to everyone who confirmed their subscription, once or as a sequence after they join.
          Every email is sent once per person, and counted in purchases, not opens.
        </p>
      </div>
      {live ? <SenderLine sender={live.sender} /> : null}
      <ViewTabs view={view} />
      <BodyEditorProvider value={renderRichText}>
        {view === 'sequence' ? (
          <SequencePanel currency={currency} />
        ) : (
          <BroadcastsPanel currency={currency} />
        )}
      </BodyEditorProvider>
    </section>
  );
}

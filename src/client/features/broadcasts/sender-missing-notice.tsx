import { TriangleAlert, UserRound } from 'lucide-react';
import { SENDER_MISSING_MESSAGE } from '../../../shared/broadcasts/broadcasts-api';
import { paths } from '../../../shared/paths';
import { Link } from '../../routing/router';
import { adminSecondaryButton } from '../../components/admin-styles';

/** The Store page's sender fields, opened. */
export const SENDER_FIELDS_LINK = `${paths.adminStore}#sender`;

/**
 * Why nothing can be sent yet, and the way to the fields that fix it: after a refusal (an
 * alert), or ahead of it while the live store has no sender.
 */
export function SenderMissingNotice({ refused = true }: { refused?: boolean }) {
  return (
    <div
      role={refused ? 'alert' : undefined}
      className="flex flex-wrap items-start gap-3 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      <TriangleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
      <div className="min-w-0 flex-1 basis-60">
        <p className="font-semibold">
          {refused ? 'Nothing was sent: the sender is missing.' : 'Add the sender first'}
        </p>
        <p className="mt-0.5">{SENDER_MISSING_MESSAGE}</p>
      </div>
      <Link to={SENDER_FIELDS_LINK} className={`${adminSecondaryButton} ml-8 self-center sm:ml-0`}>
        Open Store → Sender
      </Link>
    </div>
  );
}

/** Who the list's emails are from, as the live store says; a warning while it says nothing. */
export function SenderLine({ sender }: { sender: { name: string; postalAddress: string } }) {
  if (!sender.name.trim() || !sender.postalAddress.trim()) {
    return <SenderMissingNotice refused={false} />;
  }
  return (
    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-ink-muted">
      <UserRound aria-hidden="true" className="size-4 shrink-0" />
      <span>
        From <strong className="font-semibold text-ink">{sender.name}</strong>,{' '}
        {sender.postalAddress.replace(/\s*\n\s*/g, ', ')}
      </span>
      <Link to={SENDER_FIELDS_LINK} className="font-medium text-sage-800">
        Change
      </Link>
    </p>
  );
}

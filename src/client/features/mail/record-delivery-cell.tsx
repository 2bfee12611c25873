import { RotateCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { DeliveryEntry } from '../../../shared/mail/delivery-api';
import { adminIconButton } from '../../components/admin-styles';
import type { DeliveryApi } from './delivery-api-client';
import { DeliveryStateBadge, deliveryDetail } from './delivery-state-badge';
import { recordDeliveryLoader } from './record-delivery-loader';
import { errorMessage } from '../../../shared/error-message';

type RecordDeliveryCellProps = {
  api: DeliveryApi;
  table: string;
  recordId: number;
  /** The record's email_sent, shown as it is when no delivery is logged for the record. */
  emailSent: boolean;
};

type Loaded =
  { status: 'loading' } | { status: 'none' } | { status: 'found'; entry: DeliveryEntry };

/**
 * The Email Sent cell of a record: its latest delivery's state (sent; retrying with the next
 * attempt and the last error; failed) and a Resend button, or the stored Yes/No when the
 * record has no logged delivery.
 */
export function RecordDeliveryCell({ api, table, recordId, emailSent }: RecordDeliveryCellProps) {
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  useEffect(() => {
    let current = true;
    recordDeliveryLoader(api)
      .load(table, recordId)
      .then(
        (entry) => current && setLoaded(entry ? { status: 'found', entry } : { status: 'none' }),
        () => current && setLoaded({ status: 'none' }),
      );
    return () => {
      current = false;
    };
  }, [api, table, recordId]);

  async function resend(entry: DeliveryEntry) {
    setBusy(true);
    setError('');
    try {
      setLoaded({ status: 'found', entry: await api.resend(entry.id) });
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  const yesNo = (
    <span
      className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${
        emailSent ? 'bg-sage-100 text-sage-800' : 'bg-sand-200 text-ink-muted'
      }`}
    >
      {emailSent ? 'Yes' : 'No'}
    </span>
  );
  if (loaded.status !== 'found') {
    return <td className="px-4 py-3 whitespace-nowrap">{yesNo}</td>;
  }
  const { entry } = loaded;
  return (
    <td className="px-4 py-2">
      <div className="flex items-center gap-2">
        {yesNo}
        <DeliveryStateBadge state={entry.state} />
        {entry.state === 'sent' || entry.state === 'failed' || entry.state === 'retrying' ? (
          <button
            type="button"
            aria-label={`Resend the email of record ${recordId}`}
            title="Resend email"
            disabled={busy}
            onClick={() => void resend(entry)}
            className={`${adminIconButton} size-7`}
          >
            <RotateCw aria-hidden="true" className="size-3.5" />
          </button>
        ) : null}
      </div>
      <p className="mt-1 text-xs whitespace-nowrap text-ink-muted">{deliveryDetail(entry)}</p>
      {entry.state !== 'sent' && entry.lastError ? (
        <p title={entry.lastError} className="max-w-56 truncate text-xs text-red-800">
          {entry.lastError}
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="text-xs text-red-800">
          {error}
        </p>
      ) : null}
    </td>
  );
}

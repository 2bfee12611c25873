import { useId, useState } from 'react';
import type { AdminOrder } from '../../../shared/orders/order-api';
import { adminPrimaryButton, adminSecondaryButton } from '../../components/admin-styles';
import { Spinner } from '../../components/spinner';

type OrderNotesProps = {
  order: AdminOrder;
  save(notes: string): Promise<boolean>;
  onClose(): void;
};

/** The owner's own notes on an order, as plain text. */
export function OrderNotes({ order, save, onClose }: OrderNotesProps) {
  const id = useId();
  const [notes, setNotes] = useState(order.notes);
  const [saving, setSaving] = useState(false);

  return (
    <form
      className="flex flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        setSaving(true);
        void save(notes).then((saved) => {
          setSaving(false);
          if (saved) onClose();
        });
      }}
    >
      <label htmlFor={id} className="text-sm font-medium text-ink">
        Notes on order #{order.id}
      </label>
      <textarea
        id={id}
        rows={3}
        value={notes}
        maxLength={100_000}
        disabled={saving}
        onChange={(event) => setNotes(event.target.value)}
        className="w-full max-w-2xl resize-y rounded-lg border border-sand-300 bg-white px-3 py-2 text-sm text-ink shadow-sm"
      />
      <div className="flex gap-2">
        <button type="submit" disabled={saving} className={adminPrimaryButton}>
          {saving ? <Spinner /> : null}
          {saving ? 'Saving…' : 'Save notes'}
        </button>
        <button type="button" disabled={saving} onClick={onClose} className={adminSecondaryButton}>
          Cancel
        </button>
      </div>
    </form>
  );
}

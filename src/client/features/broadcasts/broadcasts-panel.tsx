import { useState } from 'react';
import { broadcastAdmin, type BroadcastAdmin } from './broadcast-admin-client';
import { BroadcastDetail } from './broadcast-detail';
import { BroadcastList } from './broadcast-list';

/** The broadcasts: the list, and one of them (or a new one) opened in its place. */
export function BroadcastsPanel({
  client = broadcastAdmin,
  currency = null,
}: {
  client?: BroadcastAdmin;
  /** The store's currency, for revenue. */
  currency?: string | null;
}) {
  const [open, setOpen] = useState<number | 'new' | null>(null);
  return open === null ? (
    <BroadcastList
      client={client}
      currency={currency}
      onOpen={setOpen}
      onNew={() => setOpen('new')}
    />
  ) : (
    <BroadcastDetail
      id={open === 'new' ? null : open}
      client={client}
      currency={currency}
      onBack={() => setOpen(null)}
      onCreated={setOpen}
    />
  );
}

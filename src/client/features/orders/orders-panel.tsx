import { Ban, NotebookPen, RotateCw, Send } from 'lucide-react';
import { Fragment, useId, useState } from 'react';
import { orderStatuses, type AdminOrder } from '../../../shared/orders/order-api';
import { channels, type Channel } from '../../../shared/insights/visit-source';
import { channelLabels } from '../../lib/channel-labels';
import { adminInput, adminSecondaryButton } from '../../components/admin-styles';
import { SearchField } from '../../components/search-field';
import { Pager } from '../../components/pager';
import { LoadFailed, PanelLoading } from '../../components/load-states';
import { Spinner } from '../../components/spinner';
import { formatAmount } from '../../lib/format-amount';
import { formatDate } from '../../lib/format-date';
import { orderAdmin, type OrderFilter } from './order-admin-client';
import { OrderNotes } from './order-notes';
import { OrderStatusBadge, orderStatusLabels } from './order-status-badge';
import { useOrderPage } from './use-order-page';
import { errorMessage } from '../../../shared/error-message';
import { useDebounced } from '../../lib/use-debounced';

const headerCell = 'px-4 py-3 text-xs font-semibold tracking-wide text-ink-muted uppercase';
const cell = 'px-4 py-3';
const rowButton = `${adminSecondaryButton} px-2.5 py-1.5 text-xs whitespace-nowrap`;

/** Links can be revoked until the owner has: a paid order's, or any order's still working. */
const canRevoke = (order: AdminOrder) =>
  order.linksRevokedAt === null && (order.status === 'paid' || order.activeLinks > 0);

type Notice = { kind: 'ok' | 'error'; text: string };

const channelLabel = (channel: string) =>
  (channels as readonly string[]).includes(channel) ? channelLabels[channel as Channel] : channel;

/**
 * Where the buyer came from (DESIGN.md "Sources and campaigns"): the source and its channel,
 * then medium, campaign, content and term when the link had them; Direct without a source.
 */
export function OrderSourceCell({ order }: { order: AdminOrder }) {
  const from = order.source;
  if (!from) return <span className="text-ink-muted">Direct</span>;
  const details = [
    ['Medium', from.medium],
    ['Campaign', from.campaign],
    ['Content', from.content],
    ['Term', from.term],
  ].filter(([, value]) => value !== '');
  return (
    <div className="max-w-44">
      <p className="font-medium break-words">{from.source}</p>
      <p className="text-xs text-ink-muted">{channelLabel(from.channel)}</p>
      {details.length > 0 ? (
        <dl className="mt-1 text-xs text-ink-muted">
          {details.map(([label, value]) => (
            <div key={label} className="flex gap-1">
              <dt>{label}:</dt>
              <dd className="break-words text-ink">{value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </div>
  );
}

/** A held order's amount or currency differed from the price: sending it a link approves it. */
export const approveConfirmation = (order: AdminOrder) =>
  `Order #${order.id} was held for review: its amount or currency differs from the price. Send ${order.email} the download link and mark the order paid?`;

export const revokeConfirmation = (order: AdminOrder) =>
  `Revoke every download link of order #${order.id} (${order.email})? The links in the buyer's emails will stop working.`;

/**
 * The orders Stripe's webhook recorded, newest first (DESIGN.md "Selling for real"): read-only
 * but for the owner's notes, with Resend link for a paid order and Revoke links.
 */
export function OrdersPanel() {
  const id = useId();
  const [status, setStatus] = useState<OrderFilter>('all');
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(0);
  const { data, loading, error, reload, replace } = useOrderPage({ page, status, q });
  const [busy, setBusy] = useState<number | null>(null);
  const [editing, setEditing] = useState<number | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);

  useDebounced(text.trim(), q, (wanted) => {
    setQ(wanted);
    setPage(0);
  });

  async function act(order: AdminOrder, action: () => Promise<AdminOrder>, done: string) {
    setBusy(order.id);
    setNotice(null);
    try {
      replace(await action());
      setNotice({ kind: 'ok', text: done });
      return true;
    } catch (failure) {
      setNotice({ kind: 'error', text: `Order #${order.id}: ${errorMessage(failure)}` });
      return false;
    } finally {
      setBusy(null);
    }
  }

  const resend = (order: AdminOrder) => {
    if (order.status === 'review' && !window.confirm(approveConfirmation(order))) return;
    void act(
      order,
      () => orderAdmin.resendLink(order.id),
      `A new download link for order #${order.id} is on its way to ${order.email}.`,
    );
  };

  const revoke = (order: AdminOrder) => {
    if (!window.confirm(revokeConfirmation(order))) return;
    void act(
      order,
      () => orderAdmin.revokeLinks(order.id),
      `The download links of order #${order.id} no longer work.`,
    );
  };

  const saveNotes = (order: AdminOrder, notes: string) =>
    act(order, () => orderAdmin.saveNotes(order.id, notes), `Notes on order #${order.id} saved.`);

  const filtered = status !== 'all' || q !== '';

  return (
    <section
      aria-label="Order list"
      aria-busy={loading}
      className="min-w-0 overflow-hidden rounded-2xl border border-sand-200 bg-white shadow-sm"
    >
      <div className="flex flex-wrap items-end gap-x-4 gap-y-3 border-b border-sand-200 bg-sand-50/60 px-4 py-3 sm:px-6">
        <SearchField
          id={`${id}-q`}
          label="Search name or email"
          value={text}
          maxLength={200}
          onChange={setText}
        />
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-status`} className="text-xs font-medium text-ink-muted">
            Status
          </label>
          <select
            id={`${id}-status`}
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as OrderFilter);
              setPage(0);
            }}
            className={adminInput}
          >
            <option value="all">All</option>
            {orderStatuses.map((option) => (
              <option key={option} value={option}>
                {orderStatusLabels[option]}
              </option>
            ))}
          </select>
        </div>
        <button type="button" onClick={reload} disabled={loading} className={adminSecondaryButton}>
          {loading ? <Spinner /> : <RotateCw aria-hidden="true" className="size-4" />}
          Refresh
        </button>
      </div>

      {notice ? (
        <p
          role={notice.kind === 'error' ? 'alert' : 'status'}
          className={`border-b px-4 py-2 text-sm sm:px-6 ${
            notice.kind === 'error'
              ? 'border-red-200 bg-red-50 text-red-800'
              : 'border-sand-200 bg-sage-50 text-sage-800'
          }`}
        >
          {notice.text}
        </p>
      ) : null}

      {error ? (
        <LoadFailed onRetry={reload}>Could not load the orders: {error}</LoadFailed>
      ) : !data ? (
        <PanelLoading>Loading orders…</PanelLoading>
      ) : data.orders.length === 0 ? (
        filtered ? (
          <p className="px-4 py-10 text-center text-ink-muted">No orders match.</p>
        ) : (
          <div className="px-4 py-10 text-center">
            <p className="font-medium text-ink">No orders yet</p>
            <p className="mx-auto mt-1 max-w-md text-sm text-ink-muted">
              Orders appear here once Stripe&rsquo;s webhook is set up (STRIPE_WEBHOOK_SECRET) and a
              buyer completes the checkout.
            </p>
          </div>
        )
      ) : (
        <div className={loading ? 'opacity-60 transition-opacity' : undefined}>
          {/* Focusable so keyboard users can scroll a table wider than the screen. */}
          <div
            role="group"
            aria-label="Orders table"
            tabIndex={0}
            className="overflow-x-auto focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-sage-600"
          >
            <table className="w-max min-w-full border-collapse text-left text-sm text-ink">
              <caption className="sr-only">Orders, newest first</caption>
              <thead className="bg-sand-50">
                <tr className="border-b border-sand-200">
                  <th scope="col" className={headerCell}>
                    Order
                  </th>
                  <th scope="col" className={`${headerCell} text-right`}>
                    Amount
                  </th>
                  <th scope="col" className={headerCell}>
                    Buyer
                  </th>
                  <th scope="col" className={`${headerCell} text-right`}>
                    Downloads
                  </th>
                  <th scope="col" className={`${headerCell} text-right`}>
                    Active links
                  </th>
                  <th scope="col" className={headerCell}>
                    Source
                  </th>
                  <th scope="col" className={headerCell}>
                    Paid at
                  </th>
                  <th scope="col" className={headerCell}>
                    Actions
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-sand-200">
                {data.orders.map((order) => (
                  <Fragment key={order.id}>
                    <tr className="align-top">
                      <td className={cell}>
                        <div className="flex items-center gap-2">
                          <span className="font-medium tabular-nums">#{order.id}</span>
                          <OrderStatusBadge status={order.status} />
                        </div>
                        {order.linksRevokedAt ? (
                          <p className="mt-1 text-xs whitespace-nowrap text-red-800">
                            Links revoked {formatDate(order.linksRevokedAt, 'short')}
                          </p>
                        ) : null}
                        {order.notes ? (
                          <p className="mt-1 max-w-48 truncate text-xs text-ink-muted">
                            {order.notes}
                          </p>
                        ) : null}
                      </td>
                      <td className={`${cell} text-right tabular-nums`}>
                        {formatAmount(order.amountTotal, order.currency)}
                      </td>
                      <td className={cell}>
                        <p className="font-medium">{order.name ?? '—'}</p>
                        <p className="text-ink-muted">{order.email}</p>
                      </td>
                      <td className={`${cell} text-right tabular-nums`}>{order.downloads}</td>
                      <td className={`${cell} text-right tabular-nums`}>{order.activeLinks}</td>
                      <td className={cell}>
                        <OrderSourceCell order={order} />
                      </td>
                      <td className={cell}>
                        {/* Date and time on two lines: the table fits a desktop screen. */}
                        <div className="w-28">
                          {order.paidAt ? (
                            <time dateTime={order.paidAt}>{formatDate(order.paidAt, 'short')}</time>
                          ) : (
                            '—'
                          )}
                        </div>
                      </td>
                      <td className={cell}>
                        <div className="flex flex-col items-stretch gap-1.5">
                          <button
                            type="button"
                            aria-expanded={editing === order.id}
                            aria-label={`Notes on order #${order.id}`}
                            onClick={() => setEditing(editing === order.id ? null : order.id)}
                            className={rowButton}
                          >
                            <NotebookPen aria-hidden="true" className="size-3.5" />
                            Notes
                          </button>
                          {order.status === 'paid' || order.status === 'review' ? (
                            <button
                              type="button"
                              disabled={busy !== null}
                              aria-label={`${order.status === 'paid' ? 'Resend' : 'Send'} link of order #${order.id}`}
                              onClick={() => resend(order)}
                              className={rowButton}
                            >
                              <Send aria-hidden="true" className="size-3.5" />
                              {order.status === 'paid' ? 'Resend link' : 'Send link'}
                            </button>
                          ) : null}
                          {canRevoke(order) ? (
                            <button
                              type="button"
                              disabled={busy !== null}
                              aria-label={`Revoke links of order #${order.id}`}
                              onClick={() => revoke(order)}
                              className={`${rowButton} hover:bg-red-50 hover:text-red-800`}
                            >
                              <Ban aria-hidden="true" className="size-3.5" />
                              Revoke links
                            </button>
                          ) : null}
                        </div>
                      </td>
                    </tr>
                    {editing === order.id ? (
                      <tr className="bg-sand-50/60">
                        <td colSpan={8} className={cell}>
                          <OrderNotes
                            order={order}
                            save={(notes) => saveNotes(order, notes)}
                            onClose={() => setEditing(null)}
                          />
                        </td>
                      </tr>
                    ) : null}
                  </Fragment>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            page={data.page}
            count={data.count}
            pageSize={data.pageSize}
            unit={data.count === 1 ? 'order' : 'orders'}
            disabled={loading}
            onPage={setPage}
          />
        </div>
      )}
    </section>
  );
}

import { Plus, Save } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { codeDiscountText, type AdminCode, type CodeBody } from '../../../shared/codes/codes-api';
import { errorMessage } from '../../../shared/error-message';
import { formatMoney } from '../../../shared/money';
import {
  adminFormInput,
  adminLabel,
  adminPrimaryButton,
  adminSecondaryButton,
} from '../../components/admin-styles';
import { LoadFailed, PanelLoading } from '../../components/load-states';
import { Spinner } from '../../components/spinner';
import { bannerTones } from '../../components/styles';
import { useFetched } from '../../lib/use-fetched';
import { fromLocalInput, toLocalInput } from '../../lib/local-date-time';
import { codesAdminClient, type CodesAdminClient } from './codes-admin-client';

type Form = {
  code: string;
  kind: 'percent' | 'amount';
  value: string;
  maxUses: string;
  startsAt: string;
  endsAt: string;
  active: boolean;
};

const empty: Form = {
  code: '',
  kind: 'percent',
  value: '',
  maxUses: '',
  startsAt: '',
  endsAt: '',
  active: true,
};

function formOf(code: AdminCode): Form {
  return {
    code: code.code,
    kind: code.percentOff !== null ? 'percent' : 'amount',
    value:
      code.percentOff !== null ? String(code.percentOff) : String((code.amountOffCents ?? 0) / 100),
    maxUses: code.maxUses === null ? '' : String(code.maxUses),
    startsAt: toLocalInput(code.startsAt),
    endsAt: toLocalInput(code.endsAt),
    active: code.active,
  };
}

/** The body for the API, or the sentence that says what to fix. */
function bodyOf(form: Form): CodeBody | string {
  const value = Number(form.value.replace(',', '.'));
  if (!form.value.trim() || !Number.isFinite(value) || value <= 0) {
    return form.kind === 'percent'
      ? 'Enter the percentage off, such as 20.'
      : 'Enter the amount off, such as 5.';
  }
  const maxUses = form.maxUses.trim() === '' ? null : Number(form.maxUses);
  if (maxUses !== null && (!Number.isInteger(maxUses) || maxUses < 1)) {
    return 'The maximum uses must be a whole number of at least 1, or empty for no limit.';
  }
  return {
    code: form.code.trim().toUpperCase(),
    ...(form.kind === 'percent'
      ? { percentOff: Math.round(value) }
      : { amountOffCents: Math.round(value * 100) }),
    maxUses,
    startsAt: fromLocalInput(form.startsAt),
    endsAt: fromLocalInput(form.endsAt),
    active: form.active,
  };
}

const localTime = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' }) : '–';

/**
 * Admin → Store → Codes: discount codes with a percentage or an amount off, a limit of uses,
 * a start and an end, switched on or off; each row says how often verified orders used it and
 * what they paid. The page's address /?code=CODE applies one.
 */
export function CodesPanel({
  client = codesAdminClient,
  currency,
}: {
  client?: CodesAdminClient;
  /** The live product's currency: an amount off is in it. */
  currency: string;
}) {
  const codes = useFetched('codes', () => client.list());
  const [form, setForm] = useState<Form>(empty);
  const [editing, setEditing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  async function save(body: CodeBody, update: boolean) {
    setBusy(true);
    setOutcome(null);
    try {
      const saved = update ? await client.update(body) : await client.create(body);
      setOutcome({
        tone: 'success',
        text: `Code ${saved.code} saved${saved.active ? '' : ' (not active)'}.`,
      });
      setForm(empty);
      setEditing(null);
      codes.reload();
    } catch (error) {
      setOutcome({ tone: 'error', text: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const body = bodyOf(form);
    if (typeof body === 'string') {
      setOutcome({ tone: 'error', text: body });
      return;
    }
    void save(body, editing !== null);
  }

  const set = (change: Partial<Form>) => setForm((last) => ({ ...last, ...change }));
  const field = 'grid gap-1';

  return (
    <div>
      <form onSubmit={submit} className="grid gap-4 p-5" aria-label="Discount code">
        <div className="grid gap-4 sm:grid-cols-3">
          <div className={field}>
            <label htmlFor="code-code" className={adminLabel}>
              Code
            </label>
            <input
              id="code-code"
              className={adminFormInput}
              value={form.code}
              readOnly={editing !== null}
              placeholder="SPRING"
              autoComplete="off"
              onChange={(event) => set({ code: event.target.value })}
            />
          </div>
          <div className={field}>
            <label htmlFor="code-kind" className={adminLabel}>
              Discount
            </label>
            <select
              id="code-kind"
              className={adminFormInput}
              value={form.kind}
              onChange={(event) => set({ kind: event.target.value as Form['kind'] })}
            >
              <option value="percent">Percent off</option>
              <option value="amount">Amount off ({currency.toUpperCase()})</option>
            </select>
          </div>
          <div className={field}>
            <label htmlFor="code-value" className={adminLabel}>
              {form.kind === 'percent' ? 'Percent' : 'Amount'}
            </label>
            <input
              id="code-value"
              className={adminFormInput}
              inputMode="decimal"
              value={form.value}
              placeholder={form.kind === 'percent' ? '20' : '5'}
              onChange={(event) => set({ value: event.target.value })}
            />
          </div>
          <div className={field}>
            <label htmlFor="code-max-uses" className={adminLabel}>
              Maximum uses (optional)
            </label>
            <input
              id="code-max-uses"
              className={adminFormInput}
              inputMode="numeric"
              value={form.maxUses}
              onChange={(event) => set({ maxUses: event.target.value })}
            />
          </div>
          <div className={field}>
            <label htmlFor="code-starts" className={adminLabel}>
              Starts (optional)
            </label>
            <input
              id="code-starts"
              type="datetime-local"
              className={adminFormInput}
              value={form.startsAt}
              onChange={(event) => set({ startsAt: event.target.value })}
            />
          </div>
          <div className={field}>
            <label htmlFor="code-ends" className={adminLabel}>
              Ends (optional)
            </label>
            <input
              id="code-ends"
              type="datetime-local"
              className={adminFormInput}
              value={form.endsAt}
              onChange={(event) => set({ endsAt: event.target.value })}
            />
          </div>
        </div>
        <label className="flex items-center gap-2 text-sm text-ink">
          <input
            type="checkbox"
            checked={form.active}
            onChange={(event) => set({ active: event.target.checked })}
          />
          Active
        </label>
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" className={adminPrimaryButton} disabled={busy}>
            {busy ? (
              <Spinner />
            ) : editing ? (
              <Save aria-hidden="true" className="size-4" />
            ) : (
              <Plus aria-hidden="true" className="size-4" />
            )}
            {editing ? `Save ${editing}` : 'Add code'}
          </button>
          {editing && (
            <button
              type="button"
              className={adminSecondaryButton}
              onClick={() => {
                setEditing(null);
                setForm(empty);
              }}
            >
              Cancel
            </button>
          )}
        </div>
        <div aria-live="polite">
          {outcome && (
            <p
              role={outcome.tone === 'error' ? 'alert' : 'status'}
              className={`rounded-lg border px-4 py-3 text-sm ${bannerTones[outcome.tone]}`}
            >
              {outcome.text}
            </p>
          )}
        </div>
      </form>

      {codes.error ? (
        <LoadFailed onRetry={codes.reload}>The codes could not be loaded: {codes.error}</LoadFailed>
      ) : !codes.data ? (
        <PanelLoading>Loading the codes…</PanelLoading>
      ) : codes.data.rows.length === 0 ? (
        <p className="border-t border-sand-200 px-5 py-4 text-sm text-ink-muted">
          No codes yet. A code works on the page’s address, such as /?code=SPRING, and in Stripe’s
          checkout.
        </p>
      ) : (
        // Focusable so keyboard users can scroll a table wider than the screen.
        <div
          role="group"
          aria-label="Codes table"
          tabIndex={0}
          className="relative overflow-x-auto border-t border-sand-200 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-sage-600"
        >
          <table className="w-max min-w-full text-left text-sm">
            <caption className="sr-only">Discount codes</caption>
            <thead className="bg-sand-50 text-ink-muted">
              <tr>
                <th scope="col" className="px-4 py-2 font-medium">
                  Code
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Discount
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Uses
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Revenue
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Runs
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Status
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {codes.data.rows.map((code) => (
                <tr key={code.code} className="border-t border-sand-200">
                  <th scope="row" className="px-4 py-2 font-mono font-semibold text-sage-800">
                    {code.code}
                  </th>
                  <td className="px-4 py-2">{codeDiscountText(code)}</td>
                  <td className="px-4 py-2">
                    {code.uses}
                    {code.maxUses !== null && ` of ${code.maxUses}`}
                  </td>
                  <td className="px-4 py-2">
                    {formatMoney(code.revenueCents, code.currency ?? currency)}
                  </td>
                  <td className="px-4 py-2 whitespace-nowrap">
                    {localTime(code.startsAt)} → {localTime(code.endsAt)}
                  </td>
                  <td className="px-4 py-2">{code.active ? 'Active' : 'Off'}</td>
                  <td className="px-4 py-2 whitespace-nowrap">
                    <button
                      type="button"
                      className={adminSecondaryButton}
                      disabled={busy}
                      aria-label={`Edit ${code.code}`}
                      onClick={() => {
                        setEditing(code.code);
                        setForm(formOf(code));
                        setOutcome(null);
                      }}
                    >
                      Edit
                    </button>{' '}
                    <button
                      type="button"
                      className={adminSecondaryButton}
                      disabled={busy}
                      aria-label={`${code.active ? 'Deactivate' : 'Activate'} ${code.code}`}
                      onClick={() => {
                        const body = bodyOf({ ...formOf(code), active: !code.active });
                        if (typeof body !== 'string') void save(body, true);
                      }}
                    >
                      {code.active ? 'Deactivate' : 'Activate'}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

import { X } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import {
  isEditableField,
  requiredFieldMessage,
  type TableConfig,
  type TableRow,
} from '../../../shared/admin/table-config';
import type { RowValues } from '../../../shared/admin/table-api';
import {
  adminIconButton,
  adminPrimaryButton,
  adminSecondaryButton,
} from '../../components/admin-styles';
import { ModalDialog } from '../../components/modal-dialog';
import { Spinner } from '../../components/spinner';
import { RowFormField } from './row-form-field';
import { firstMissingField, initialFormValues, toRowValues } from './row-form-values';
import { errorMessage } from '../../../shared/error-message';

type RowFormModalProps = {
  config: TableConfig;
  /** The row to edit; none to add a new one. */
  row?: TableRow;
  /** Stores the values; rejects with the server's message when it refuses them. */
  onSave(values: RowValues): Promise<void>;
  onClose(): void;
};

/**
 * The add/edit form of a table (SPEC.md §2 "Form modal", §4): one input per editable field;
 * it stays open with the server's message when a save fails.
 */
export function RowFormModal({ config, row, onSave, onClose }: RowFormModalProps) {
  const id = useId();
  const fields = config.field_list.filter(isEditableField);
  const [values, setValues] = useState(() => initialFormValues(fields, row));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState('');
  const title = `${row ? 'Edit' : 'Add New'} ${config.ui_table_name}`;

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    // The server checks this too; asking first spares the owner a round trip.
    const missing = firstMissingField(fields, values);
    if (missing) {
      setError(requiredFieldMessage(missing));
      document.getElementById(`${id}-${missing.db_name}`)?.focus();
      return;
    }
    setSaving(true);
    setError('');
    try {
      await onSave(toRowValues(fields, values, row));
    } catch (failure) {
      setError(errorMessage(failure));
      setSaving(false);
    }
  }

  return (
    <ModalDialog
      labelledBy={`${id}-title`}
      onClose={onClose}
      className="flex max-h-[calc(100dvh-2rem)] w-full max-w-2xl flex-col overflow-hidden rounded-2xl bg-white shadow-xl"
    >
      <div className="flex items-center justify-between gap-4 border-b border-sand-200 px-5 py-4 sm:px-6">
        <div className="min-w-0">
          <h2 id={`${id}-title`} className="text-xl font-semibold text-sage-800">
            {title}
          </h2>
          {row ? <p className="mt-0.5 text-sm text-ink-muted">Record #{row.id}</p> : null}
        </div>
        <button type="button" onClick={onClose} aria-label="Close" className={adminIconButton}>
          <X aria-hidden="true" className="size-5" />
        </button>
      </div>
      <form noValidate onSubmit={save} className="flex min-h-0 flex-col">
        <div className="max-h-[60vh] space-y-5 overflow-y-auto px-5 py-5 sm:px-6">
          {fields.map((field) => (
            <RowFormField
              key={field.db_name}
              field={field}
              id={`${id}-${field.db_name}`}
              value={values[field.db_name] ?? ''}
              onChange={(value) => setValues((current) => ({ ...current, [field.db_name]: value }))}
            />
          ))}
        </div>
        <div className="flex flex-col gap-3 border-t border-sand-200 bg-sand-50 px-5 py-4 sm:flex-row sm:items-center sm:px-6">
          <p role="alert" className="text-sm font-medium text-red-700 empty:hidden sm:mr-auto">
            {error}
          </p>
          <div className="flex justify-end gap-3 sm:ml-auto">
            <button type="button" onClick={onClose} className={adminSecondaryButton}>
              Cancel
            </button>
            <button type="submit" disabled={saving} className={`${adminPrimaryButton} min-w-24`}>
              {saving ? (
                <>
                  <Spinner />
                  Saving...
                </>
              ) : (
                'Save'
              )}
            </button>
          </div>
        </div>
      </form>
    </ModalDialog>
  );
}

import type { FieldConfig } from '../../../shared/admin/table-config';
import { adminFormInput, adminLabel } from '../../components/admin-styles';
import { RichTextEditor } from './rich-text-editor';

function RequiredMark() {
  return (
    <span aria-hidden="true" className="ml-0.5 text-red-600">
      *
    </span>
  );
}

type RowFormFieldProps = {
  field: FieldConfig;
  id: string;
  value: string | boolean;
  onChange(value: string | boolean): void;
};

/** One labelled input, chosen by the field's type (SPEC.md §2 "Form modal"). */
export function RowFormField({ field, id, value, onChange }: RowFormFieldProps) {
  const label = (
    <>
      {field.ui_name}
      {field.required ? <RequiredMark /> : null}
    </>
  );
  const required = field.required || undefined;

  if (field.type === 'checkbox') {
    return (
      <div className="flex items-center gap-3">
        <input
          id={id}
          type="checkbox"
          checked={value === true}
          onChange={(event) => onChange(event.target.checked)}
          className="size-5 shrink-0 rounded border-sand-300 accent-sage-700"
        />
        <label htmlFor={id} className={adminLabel}>
          {label}
        </label>
      </div>
    );
  }

  const text = typeof value === 'string' ? value : '';

  if (field.type === 'rich_text') {
    return (
      <div>
        <span id={`${id}-label`} className={adminLabel}>
          {label}
        </span>
        <RichTextEditor labelledBy={`${id}-label`} defaultValue={text} onChange={onChange} />
      </div>
    );
  }

  let input;
  if (field.type === 'number') {
    input = (
      <input
        id={id}
        type="number"
        step="any"
        inputMode="decimal"
        aria-required={required}
        value={text}
        onChange={(event) => onChange(event.target.value)}
        className={adminFormInput}
      />
    );
  } else if (field.type === 'timestamp') {
    input = (
      <input
        id={id}
        type="datetime-local"
        step={60}
        aria-required={required}
        value={text}
        onChange={(event) => onChange(event.target.value)}
        className={adminFormInput}
      />
    );
  } else if (field.db_name.includes('message') || field.db_name.includes('description')) {
    input = (
      <textarea
        id={id}
        rows={4}
        aria-required={required}
        value={text}
        onChange={(event) => onChange(event.target.value)}
        className={`${adminFormInput} resize-y`}
      />
    );
  } else {
    input = (
      <input
        id={id}
        type="text"
        aria-required={required}
        value={text}
        onChange={(event) => onChange(event.target.value)}
        className={adminFormInput}
      />
    );
  }
  return (
    <div>
      <label htmlFor={id} className={adminLabel}>
        {label}
      </label>
      {input}
    </div>
  );
}

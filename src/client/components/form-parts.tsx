import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';
import { HONEYPOT_FIELD } from '../../shared/forms/form-fields';
import { bannerTones, fieldInput } from './styles';

type FieldProps = { label: string; id: string } & (
  | ({ multiline?: false } & InputHTMLAttributes<HTMLInputElement>)
  | ({ multiline: true } & TextareaHTMLAttributes<HTMLTextAreaElement>)
);

/** A labelled input or 4-row textarea (SPEC.md §9). */
export function Field({ label, id, ...props }: FieldProps) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-ink">
        {label}
      </label>
      {props.multiline ? (
        <textarea
          id={id}
          rows={4}
          {...{ ...props, multiline: undefined }}
          className={`${fieldInput} resize-y`}
        />
      ) : (
        <input id={id} {...{ ...props, multiline: undefined }} className={fieldInput} />
      )}
    </div>
  );
}

/** Kept out of sight and out of the tab order; a person never fills it, a bot often does. */
export function Honeypot({
  value,
  onChange,
  id,
}: {
  value: string;
  onChange(value: string): void;
  id: string;
}) {
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
      <label htmlFor={id}>Leave this field empty</label>
      <input
        id={id}
        name={HONEYPOT_FIELD}
        type="text"
        tabIndex={-1}
        autoComplete="off"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

/** An outcome message: polite for success and duplicate, assertive for errors. */
export function Banner({
  tone,
  title,
  children,
}: {
  tone: keyof typeof bannerTones;
  title: string;
  children?: ReactNode;
}) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={`rounded-2xl border px-4 py-3 ${bannerTones[tone]}`}
    >
      <p className="font-semibold">{title}</p>
      {children ? <p className="mt-1 text-sm">{children}</p> : null}
    </div>
  );
}

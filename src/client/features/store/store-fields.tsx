import { ArrowDown, ArrowUp, ChevronDown, Plus, Trash2 } from 'lucide-react';
import {
  createContext,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import {
  adminFormInput,
  adminIconButton,
  adminLabel,
  adminSecondaryButton,
} from '../../components/admin-styles';
import type { StoreFileSummary } from '../../../shared/store/files-api';
import { scrollToSection } from '../../lib/scroll';
import { useLocation } from '../../routing/router';
import { valueAt, type FieldErrors, type StoreForm } from './store-form';

/** What every field of the Store page reads and writes: the form, its errors, the changes. */
export type StoreFields = {
  form: StoreForm;
  errors: FieldErrors;
  /** Sets the value at a content path (a price's text at its path). */
  set(path: string, value: unknown): void;
  /** The uploaded files the form may name, by id: the store's and this visit's uploads. */
  files: Record<string, StoreFileSummary>;
  addFile(id: string, file: StoreFileSummary): void;
};

const FieldsContext = createContext<StoreFields | null>(null);
export const StoreFieldsProvider = FieldsContext.Provider;

export function useStoreFields(): StoreFields {
  const fields = useContext(FieldsContext);
  if (!fields) throw new Error('A store field outside the Store page form.');
  return fields;
}

/** The error of `path`, or of anything under it. */
export function errorsUnder(errors: FieldErrors, path: string): boolean {
  return Object.keys(errors).some((key) => key === path || key.startsWith(`${path}.`));
}

/** A field's label, hint and error, tied to the control by ids. */
export function FieldFrame({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string | undefined;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className={adminLabel}>
        {label}
      </label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-sm text-ink-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/** The attributes that tie a control to its frame's hint and error. */
export function describedBy(id: string, hint: unknown, error: string | undefined) {
  const ids = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ');
  return {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': ids || undefined,
    className: `${adminFormInput} ${error ? 'border-red-400' : ''}`,
  };
}

/** A text of the content at `path`, typed in an input or a text area. */
export function TextField({
  path,
  label,
  hint,
  rows,
  type = 'text',
  inputMode,
}: {
  path: string;
  label: string;
  hint?: ReactNode;
  /** A text area of this many rows instead of a line. */
  rows?: number;
  type?: 'text' | 'url' | 'date' | 'datetime-local';
  inputMode?: 'decimal' | 'url';
}) {
  const { form, errors, set } = useStoreFields();
  const id = `${useId()}-${path}`;
  const error = errors[path];
  const value = form.prices[path] ?? valueAt(form.content, path);
  const common = {
    id,
    name: path,
    value: typeof value === 'string' ? value : '',
    ...describedBy(id, hint, error),
  };
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      {rows ? (
        <textarea {...common} rows={rows} onChange={(event) => set(path, event.target.value)} />
      ) : (
        <input
          {...common}
          type={type}
          inputMode={inputMode}
          onChange={(event) => set(path, event.target.value)}
        />
      )}
    </FieldFrame>
  );
}

type RichTextTool = {
  label: string;
  before: string;
  after: string;
  placeholder: string;
  /** A mark that starts a line (a heading, a list item). */
  line: boolean;
};

const richTextTools: RichTextTool[] = [
  { label: 'Heading', before: '## ', after: '', placeholder: 'Heading', line: true },
  { label: 'List item', before: '- ', after: '', placeholder: 'List item', line: true },
  { label: 'Bold', before: '**', after: '**', placeholder: 'bold text', line: false },
  { label: 'Link', before: '[', after: '](/contact-us)', placeholder: 'link text', line: false },
];

/** Rich text (the policy pages): a text area with buttons that write its few marks. */
export function RichTextField({ path, label }: { path: string; label: string }) {
  const { form, errors, set } = useStoreFields();
  const id = `${useId()}-${path}`;
  const area = useRef<HTMLTextAreaElement>(null);
  const error = errors[path];
  const value = String(valueAt(form.content, path) ?? '');
  const hint =
    'A line starting with “## ” is a heading, “- ” a list item, “> ” a highlighted note; a blank line starts a new paragraph.';

  /** Wraps the selection (or the placeholder) in the tool's marks; a line mark starts a line. */
  function apply({ before, after, placeholder, line }: RichTextTool) {
    const element = area.current;
    if (!element) return;
    const { selectionStart: start, selectionEnd: end } = element;
    const atLineStart = start === 0 || value[start - 1] === '\n';
    const opening = line && !atLineStart ? `\n\n${before}` : before;
    const chosen = value.slice(start, end) || placeholder;
    set(path, value.slice(0, start) + opening + chosen + after + value.slice(end));
    requestAnimationFrame(() => {
      element.focus();
      element.setSelectionRange(start + opening.length, start + opening.length + chosen.length);
    });
  }

  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      <div
        role="toolbar"
        aria-label={`${label}: formatting`}
        className="mt-1.5 flex flex-wrap gap-2"
      >
        {richTextTools.map((tool) => (
          <button
            key={tool.label}
            type="button"
            onClick={() => apply(tool)}
            className="rounded-md border border-sand-300 bg-sand-50 px-2.5 py-1 text-xs font-medium text-sage-800 hover:bg-sand-100"
          >
            {tool.label}
          </button>
        ))}
      </div>
      <textarea
        ref={area}
        id={id}
        name={path}
        rows={14}
        value={value}
        onChange={(event) => set(path, event.target.value)}
        {...describedBy(id, hint, error)}
      />
    </FieldFrame>
  );
}

/**
 * One part of the page, folded away until opened; opened by itself when one of its fields
 * has an error, so no error is hidden, and when the address names it (`#/admin/store#sender`).
 */
export function Section({
  id,
  title,
  text,
  paths,
  open: initiallyOpen = false,
  children,
}: {
  /** Its anchor: a link to the page with `#<id>` opens it and scrolls to it. */
  id?: string;
  title: string;
  text: string;
  /** The content paths its fields edit. */
  paths: string[];
  open?: boolean;
  children: ReactNode;
}) {
  const { errors } = useStoreFields();
  const { hash } = useLocation();
  const targeted = id !== undefined && hash === `#${id}`;
  const [opened, setOpened] = useState(initiallyOpen || targeted);
  const [wasTargeted, setWasTargeted] = useState(targeted);
  if (targeted !== wasTargeted) {
    setWasTargeted(targeted);
    if (targeted) setOpened(true);
  }
  useEffect(() => {
    if (targeted && id) scrollToSection(id);
  }, [targeted, id]);
  const hasError = paths.some((path) => errorsUnder(errors, path));
  const open = opened || hasError;
  return (
    <details
      id={id}
      open={open}
      onToggle={(event) => setOpened(event.currentTarget.open)}
      className="group rounded-2xl border border-sand-200 bg-white shadow-sm"
    >
      <summary className="flex cursor-pointer list-none items-start justify-between gap-4 rounded-2xl p-5 focus-visible:outline-2 focus-visible:outline-sage-600 sm:p-6 [&::-webkit-details-marker]:hidden">
        <span>
          <span className="block text-lg font-semibold text-sage-800">{title}</span>
          <span className="mt-1 block text-sm text-ink-muted">{text}</span>
        </span>
        <span className="flex shrink-0 items-center gap-2">
          {hasError && (
            <span className="rounded-full bg-red-50 px-2 py-0.5 text-xs font-semibold text-red-700">
              Needs attention
            </span>
          )}
          <ChevronDown
            aria-hidden="true"
            className="mt-1 size-5 text-ink-muted transition-transform group-open:rotate-180"
          />
        </span>
      </summary>
      <div className="grid gap-5 border-t border-sand-200 p-5 sm:p-6">{children}</div>
    </details>
  );
}

/**
 * A list of the content (testimonials, bundle parts, results…): each item in its own group,
 * moved up or down, removed, and new ones added at the end.
 */
export function ListEditor<T>({
  path,
  legend,
  itemName,
  newItem,
  min = 0,
  max,
  inline = false,
  children,
}: {
  path: string;
  legend: string;
  /** What one item is called: "Testimonial" gives "Testimonial 2", "Add a testimonial". */
  itemName: string;
  newItem(): T;
  min?: number;
  max: number;
  /** Items of one field each (a text): in a row with their buttons, without a box. */
  inline?: boolean;
  /** The fields of item `index`, at `itemPath` ("testimonials.items.2"). */
  children(itemPath: string, index: number, item: T): ReactNode;
}) {
  const { form, errors, set } = useStoreFields();
  const items = (valueAt(form.content, path) as T[] | undefined) ?? [];
  const name = itemName.toLowerCase();
  const listError = errors[path];
  const move = (from: number, to: number) => {
    const next = [...items];
    next.splice(to, 0, ...next.splice(from, 1));
    set(path, next);
  };
  return (
    <fieldset className="grid gap-3">
      <legend className="text-sm font-semibold text-ink">{legend}</legend>
      {listError && <p className="text-sm font-medium text-red-700">{listError}</p>}
      <ol className="grid gap-3">
        {items.map((item, index) => {
          const buttons = (
            <div className="flex shrink-0 gap-1">
              <button
                type="button"
                className={adminIconButton}
                aria-label={`Move ${name} ${index + 1} up`}
                disabled={index === 0}
                onClick={() => move(index, index - 1)}
              >
                <ArrowUp aria-hidden="true" className="size-4" />
              </button>
              <button
                type="button"
                className={adminIconButton}
                aria-label={`Move ${name} ${index + 1} down`}
                disabled={index === items.length - 1}
                onClick={() => move(index, index + 1)}
              >
                <ArrowDown aria-hidden="true" className="size-4" />
              </button>
              <button
                type="button"
                className={adminIconButton}
                aria-label={`Remove ${name} ${index + 1}`}
                disabled={items.length <= min}
                onClick={() =>
                  set(
                    path,
                    items.filter((_, other) => other !== index),
                  )
                }
              >
                <Trash2 aria-hidden="true" className="size-4" />
              </button>
            </div>
          );
          return inline ? (
            <li key={index} className="flex items-end gap-2">
              <div className="min-w-0 flex-1">{children(`${path}.${index}`, index, item)}</div>
              <div className="pb-1">{buttons}</div>
            </li>
          ) : (
            <li key={index}>
              <fieldset className="rounded-xl border border-sand-200 bg-sand-50/60 p-4">
                <div className="flex items-center justify-between gap-2">
                  <legend className="float-left text-sm font-semibold text-sage-800">
                    {itemName} {index + 1}
                  </legend>
                  {buttons}
                </div>
                <div className="clear-both mt-3 grid gap-4">
                  {children(`${path}.${index}`, index, item)}
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
      {items.length < max && (
        <button
          type="button"
          className={`${adminSecondaryButton} justify-self-start`}
          onClick={() => set(path, [...items, newItem()])}
        >
          <Plus aria-hidden="true" className="size-4" />
          Add {/^[aeiou]/.test(name) ? 'an' : 'a'} {name}
        </button>
      )}
    </fieldset>
  );
}

import { adminInput } from './admin-styles';

/** An admin date input with its label above; `problemId` names the message that marks it invalid. */
export function DateField({
  id,
  label,
  value,
  onChange,
  problemId,
  className = '',
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  problemId?: string;
  className?: string;
}) {
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-xs font-medium text-ink-muted">
        {label}
      </label>
      <input
        id={id}
        type="date"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={problemId ? true : undefined}
        aria-describedby={problemId}
        className={`${adminInput} w-full`}
      />
    </div>
  );
}

import { useId, useState, type FormEvent } from 'react';
import { adminPrimaryButton } from '../../components/admin-styles';
import { DateField } from '../../components/date-field';
import { lastDays, quickRangeDays, rangeProblem, type InsightsRange } from './insights-range';

const quickButton = 'rounded-full border px-3 py-1.5 text-sm font-medium transition-colors';

/**
 * The range of days shown: two dates applied together, or one of the quick ranges at once.
 * A range the server would refuse is explained here and never requested. Give it a `key` of
 * the range so the fields follow a range changed elsewhere (Back, a quick range).
 */
export function RangePicker({
  range,
  today,
  onChange,
}: {
  range: InsightsRange;
  today: string;
  onChange: (range: InsightsRange) => void;
}) {
  const id = useId();
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  const [problem, setProblem] = useState<string | null>(null);

  function apply(event: FormEvent) {
    event.preventDefault();
    const wanted = { from, to };
    const found = rangeProblem(wanted);
    setProblem(found);
    if (!found) onChange(wanted);
  }

  return (
    <form
      onSubmit={apply}
      noValidate
      aria-label="Date range"
      className="rounded-2xl border border-sand-200 bg-white px-4 py-4 shadow-sm sm:px-6"
    >
      <div className="flex flex-wrap items-end gap-3">
        {(
          [
            ['from', 'From', from, setFrom],
            ['to', 'To', to, setTo],
          ] as const
        ).map(([key, label, value, set]) => (
          <DateField
            key={key}
            id={`${id}-${key}`}
            label={label}
            value={value}
            onChange={set}
            problemId={problem ? `${id}-problem` : undefined}
            className="min-w-0 flex-[1_1_9rem] sm:max-w-60"
          />
        ))}
        <button type="submit" className={adminPrimaryButton}>
          Show
        </button>
      </div>
      <div role="group" aria-label="Quick ranges" className="mt-3 flex flex-wrap gap-2">
        {quickRangeDays.map((days) => {
          const quick = lastDays(days, today);
          const pressed = quick.from === range.from && quick.to === range.to;
          return (
            <button
              key={days}
              type="button"
              aria-pressed={pressed}
              onClick={() => onChange(quick)}
              className={`${quickButton} ${
                pressed
                  ? 'border-sage-700 bg-sage-700 text-white'
                  : 'border-sand-300 bg-white text-sage-800 hover:bg-sand-100'
              }`}
            >
              Last {days} days
            </button>
          );
        })}
      </div>
      {problem ? (
        <p id={`${id}-problem`} role="alert" className="mt-3 text-sm text-red-800">
          {problem}
        </p>
      ) : null}
    </form>
  );
}

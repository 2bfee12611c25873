import { render } from '@testing-library/react';
import { useState, type ReactElement } from 'react';
import { vi } from 'vitest';

/**
 * A controlled field rendered as its page holds it: the value in state, and every change also
 * reported to the returned spy (with whatever else the field passes along).
 */
export function renderControlled<V, Rest extends unknown[] = []>(
  initial: V,
  field: (value: V, onChange: (value: V, ...rest: Rest) => void) => ReactElement,
) {
  const onChange = vi.fn<(value: V, ...rest: Rest) => void>();
  function Page() {
    const [value, setValue] = useState(initial);
    return field(value, (next, ...rest) => {
      onChange(next, ...rest);
      setValue(() => next);
    });
  }
  const view = render(<Page />);
  return { onChange, unmount: view.unmount };
}

import { describe, expect, it } from 'vitest';
import { idle, submitReducer, type SubmitState } from './submit-state';

describe('submit state machine (SPEC.md §4)', () => {
  const loading: SubmitState = { status: 'loading' };

  it('goes idle → loading → success, duplicate or error, and Reset returns to idle', () => {
    expect(submitReducer(idle, { type: 'submit' })).toEqual(loading);
    expect(submitReducer(loading, { type: 'success' })).toEqual({ status: 'success' });
    expect(submitReducer(loading, { type: 'duplicate' })).toEqual({ status: 'duplicate' });
    expect(submitReducer(loading, { type: 'error', message: 'Too many' })).toEqual({
      status: 'error',
      errorMessage: 'Too many',
    });
    expect(submitReducer({ status: 'error', errorMessage: 'x' }, { type: 'reset' })).toEqual(idle);
  });

  it('clears the previous outcome when submitting again', () => {
    expect(submitReducer({ status: 'error', errorMessage: 'x' }, { type: 'submit' })).toEqual(
      loading,
    );
    expect(submitReducer({ status: 'duplicate' }, { type: 'submit' })).toEqual(loading);
  });

  it('ignores answers that arrive when nothing is loading', () => {
    expect(submitReducer(idle, { type: 'success' })).toBe(idle);
    expect(submitReducer({ status: 'success' }, { type: 'error' })).toEqual({ status: 'success' });
  });
});

import { useReducer } from 'react';

/** The states every visitor form shares (SPEC.md §4). */
export type SubmitStatus = 'idle' | 'loading' | 'success' | 'duplicate' | 'error';

export type SubmitState = { status: SubmitStatus; errorMessage?: string };

export type SubmitEvent =
  | { type: 'submit' }
  | { type: 'success' }
  | { type: 'duplicate' }
  | { type: 'error'; message?: string }
  | { type: 'reset' };

export const idle: SubmitState = { status: 'idle' };

/** Submitting clears the previous outcome; an answer only counts while loading. */
export function submitReducer(state: SubmitState, event: SubmitEvent): SubmitState {
  switch (event.type) {
    case 'submit':
      return state.status === 'loading' ? state : { status: 'loading' };
    case 'success':
    case 'duplicate':
      return state.status === 'loading' ? { status: event.type } : state;
    case 'error':
      return state.status === 'loading' ? { status: 'error', errorMessage: event.message } : state;
    case 'reset':
      return idle;
  }
}

export function useSubmitState() {
  return useReducer(submitReducer, idle);
}

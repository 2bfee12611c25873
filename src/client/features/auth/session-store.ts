import { useEffect, useSyncExternalStore } from 'react';
import { onSessionEnded } from '../../lib/api-client';
import { fetchSession, signOutRequest, verifyCode } from './auth-client';

export type SessionState =
  | { status: 'loading' }
  | { status: 'signed-in'; email: string; isAdmin: boolean }
  | { status: 'signed-out' };

let state: SessionState = { status: 'loading' };
let reading: Promise<void> | undefined;
const listeners = new Set<() => void>();

function set(next: SessionState) {
  state = next;
  for (const listener of listeners) listener();
}

/** Reads the session from the server once; later reads come from sign-in and sign-out. */
function readOnce() {
  reading ??= fetchSession().then(
    (session) => {
      if (state.status === 'loading') {
        set(
          session
            ? { status: 'signed-in', email: session.user.email, isAdmin: session.isAdmin }
            : { status: 'signed-out' },
        );
      }
    },
    (error: unknown) => {
      // SPEC.md §8: a session read error is only logged; the visitor counts as signed out.
      console.warn('Could not read the session', error);
      if (state.status === 'loading') set({ status: 'signed-out' });
    },
  );
}

export const session = {
  get: () => state,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  async signIn(email: string, code: string) {
    const { user, isAdmin } = await verifyCode(email, code);
    set({ status: 'signed-in', email: user.email, isAdmin });
  },
  async signOut() {
    await signOutRequest();
    set({ status: 'signed-out' });
  },
  /** The server no longer accepts the session (an admin call answered 401): signed out. */
  expired() {
    set({ status: 'signed-out' });
  },
  /** Forgets what was read (tests start each case from "loading"). */
  reset() {
    reading = undefined;
    set({ status: 'loading' });
  },
};

// The one place a 401 is given its meaning: any call the server refuses so ends the session.
onSessionEnded(() => session.expired());

/** The current session: 'loading' until the server has answered, then updated on sign-in/out. */
export function useSession(): SessionState {
  useEffect(readOnce, []);
  return useSyncExternalStore(session.subscribe, session.get, session.get);
}

import { useEffect, useState } from 'react';
import { fetchAdminAccess } from './auth-client';
import { useSession } from './session-store';

export type AdminAccess =
  | { status: 'loading' }
  | { status: 'signed-out' }
  | { status: 'forbidden'; email: string }
  | { status: 'admin'; email: string }
  | { status: 'error'; email: string };

/**
 * Whether the signed-in account may use the admin area. The server decides (the allowlist can
 * change at any time), so it is asked whenever the signed-in account changes.
 */
export function useAdminAccess(): AdminAccess {
  const session = useSession();
  const email = session.status === 'signed-in' ? session.email : null;
  const [answer, setAnswer] = useState<{ for: string; access: AdminAccess } | null>(null);

  useEffect(() => {
    if (!email) return;
    let current = true;
    fetchAdminAccess().then(
      (result) => {
        if (!current) return;
        const access: AdminAccess =
          result.kind === 'signed-out' ? { status: 'signed-out' } : { status: result.kind, email };
        setAnswer({ for: email, access });
      },
      (error: unknown) => {
        console.warn('Could not check admin access', error);
        if (current) setAnswer({ for: email, access: { status: 'error', email } });
      },
    );
    return () => {
      current = false;
    };
  }, [email]);

  if (session.status === 'loading') return { status: 'loading' };
  if (session.status === 'signed-out') return { status: 'signed-out' };
  if (answer?.for !== session.email) return { status: 'loading' };
  return answer.access;
}

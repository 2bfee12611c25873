import { House, LockKeyhole, Mail } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from '../routing/router';
import { CODE_LENGTH } from '../../shared/auth';
import { paths } from '../../shared/paths';
import { sendCode } from '../features/auth/auth-client';
import { session } from '../features/auth/session-store';
import { signInButton, signInInput } from '../components/styles';
import { errorMessage } from '../../shared/error-message';

export type LoginMode = 'normal' | 'admin';

type LoginPageProps = {
  mode: LoginMode;
};

const texts: Record<LoginMode, { title: string; subtitle: string; destination: string }> = {
  normal: { title: 'Welcome Back', subtitle: 'Sign in to continue', destination: paths.home },
  admin: {
    title: 'Admin Access',
    subtitle: 'Sign in to access the dashboard',
    destination: paths.admin,
  },
};

type Step = 'email' | 'otp';

/** One sign-in screen for visitors (/login) and the owner (/admin/login), in two steps. */
export function LoginPage({ mode }: LoginPageProps) {
  // Both routes render this component in the same place: a key keeps each mode's state apart.
  return <LoginSteps key={mode} mode={mode} />;
}

function LoginSteps({ mode }: LoginPageProps) {
  const { title, subtitle, destination } = texts[mode];
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [loading, setLoading] = useState(false);
  const [info, setInfo] = useState('');
  const [error, setError] = useState('');
  const [step, setStep] = useState<Step>('email');
  const emailId = useId();
  const codeId = useId();

  async function requestCode(event: FormEvent) {
    event.preventDefault();
    const address = email.trim();
    setLoading(true);
    setError('');
    setInfo('');
    try {
      await sendCode(address);
      setEmail(address);
      setStep('otp');
      setInfo(`A verification code has been sent to ${address}`);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setLoading(false);
    }
  }

  async function verify(event: FormEvent) {
    event.preventDefault();
    setLoading(true);
    setError('');
    try {
      await session.signIn(email, code.trim());
      void navigate(destination, { replace: true });
    } catch (failure) {
      setError(errorMessage(failure));
      setLoading(false);
    }
  }

  function backToEmailStep() {
    setStep('email');
    setCode('');
    setInfo('');
    setError('');
  }

  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-sand-50 px-4 py-12">
      <div className="w-full max-w-md">
        {mode === 'normal' && (
          <Link
            to={paths.home}
            className="mb-6 inline-flex items-center gap-2 rounded-lg border border-sand-300 bg-white px-4 py-2 text-sm font-medium text-sage-800 no-underline shadow-sm hover:bg-sand-100 hover:no-underline"
          >
            <House aria-hidden="true" className="size-4" />
            Home
          </Link>
        )}
        <div className="rounded-2xl border border-sand-200 bg-white px-6 py-8 shadow-sm sm:px-10 sm:py-10">
          <div className="mb-8 text-center">
            <span className="mx-auto mb-4 flex size-12 items-center justify-center rounded-full bg-sage-100 text-sage-700">
              {step === 'email' ? (
                <Mail aria-hidden="true" className="size-6" />
              ) : (
                <LockKeyhole aria-hidden="true" className="size-6" />
              )}
            </span>
            <h1 className="text-3xl font-semibold tracking-tight text-sage-800">{title}</h1>
            <p className="mt-2 text-ink-muted">{subtitle}</p>
          </div>

          {step === 'email' ? (
            <form onSubmit={requestCode} className="space-y-5">
              <div>
                <label htmlFor={emailId} className="block text-sm font-medium text-ink">
                  Email
                </label>
                <input
                  id={emailId}
                  type="email"
                  name="email"
                  required
                  autoComplete="email"
                  placeholder="you@example.com"
                  value={email}
                  disabled={loading}
                  onChange={(event) => setEmail(event.target.value)}
                  className={signInInput}
                />
              </div>
              <button type="submit" disabled={loading} className={signInButton}>
                {loading ? 'Sending...' : 'Send Verification Code'}
              </button>
            </form>
          ) : (
            <form onSubmit={verify} className="space-y-5">
              <div>
                <label htmlFor={codeId} className="block text-sm font-medium text-ink">
                  Verification code
                </label>
                <input
                  id={codeId}
                  type="text"
                  name="code"
                  required
                  maxLength={CODE_LENGTH}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  placeholder="Enter 6-digit code"
                  value={code}
                  disabled={loading}
                  onChange={(event) => setCode(event.target.value)}
                  className={`${signInInput} text-center text-lg tracking-[0.3em] placeholder:text-base placeholder:tracking-normal`}
                />
              </div>
              <button type="submit" disabled={loading} className={signInButton}>
                {loading ? 'Verifying...' : 'Verify and Sign In'}
              </button>
              <button
                type="button"
                onClick={backToEmailStep}
                disabled={loading}
                className="mx-auto block rounded text-sm font-medium text-sage-700 underline-offset-4 hover:underline disabled:opacity-70"
              >
                Use a different email
              </button>
            </form>
          )}

          <div aria-live="polite" className="mt-6 space-y-3 empty:hidden">
            {info && (
              <p className="rounded-lg bg-sage-50 px-4 py-3 text-sm text-sage-800">{info}</p>
            )}
            {error && (
              <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-700">
                {error}
              </p>
            )}
          </div>
        </div>
      </div>
    </main>
  );
}

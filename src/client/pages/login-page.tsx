import { SimplePage } from '../components/simple-page';

export type LoginMode = 'normal' | 'admin';

type LoginPageProps = {
  mode: LoginMode;
};

const titles: Record<LoginMode, string> = {
  normal: 'Welcome Back',
  admin: 'Admin Access',
};

/** One sign-in screen for visitors (/login) and the owner (/admin/login). */
export function LoginPage({ mode }: LoginPageProps) {
  return <SimplePage title={titles[mode]} />;
}

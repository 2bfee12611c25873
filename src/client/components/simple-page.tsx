import type { ReactNode } from 'react';

type SimplePageProps = {
  title: string;
  children?: ReactNode;
};

/** The main landmark and single h1 shared by the plain content screens. */
export function SimplePage({ title, children }: SimplePageProps) {
  return (
    <main className="mx-auto max-w-3xl px-6 py-16">
      <h1 className="text-3xl font-semibold tracking-tight text-sage-800 sm:text-4xl">{title}</h1>
      {children}
    </main>
  );
}

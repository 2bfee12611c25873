import { Suspense } from 'react';
import { Outlet } from '../../app/router';
import { PageFallback } from '../../components/page-fallback';

export function AdminLayout() {
  return (
    <main className="mx-auto max-w-6xl px-6 py-10">
      <h1 className="text-3xl font-semibold tracking-tight text-sage-800">Admin Dashboard</h1>
      <Suspense fallback={<PageFallback />}>
        <Outlet />
      </Suspense>
    </main>
  );
}

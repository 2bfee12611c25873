import { ArrowLeft } from 'lucide-react';
import { Link } from '../routing/router';
import { paths } from '../../shared/paths';
import { LogoMark } from './logo';
import { useStoreContent } from '../routing/public-config';

/** The sticky bar of the inner pages: the brand, the page's title and the way back home. */
export function PageHeader({ title }: { title: string }) {
  const { product } = useStoreContent();
  return (
    <header className="sticky top-0 z-20 border-b border-sand-300 bg-sand-50/95 backdrop-blur">
      <div className="mx-auto flex max-w-5xl items-center justify-between gap-4 px-6 py-3">
        <div className="flex min-w-0 items-center gap-3">
          <LogoMark className="h-8 w-8 shrink-0" />
          <p className="truncate text-sm font-medium text-ink-muted">
            <span className="hidden sm:inline">{product.name} · </span>
            {title}
          </p>
        </div>
        <Link
          to={paths.home}
          className="inline-flex shrink-0 items-center gap-1.5 rounded-full px-3 py-1.5 text-sm font-semibold text-sage-700 no-underline hover:bg-sage-50"
        >
          <ArrowLeft aria-hidden="true" className="h-4 w-4" />
          Back to Home
        </Link>
      </div>
    </header>
  );
}

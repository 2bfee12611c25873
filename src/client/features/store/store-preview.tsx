import { ViewportPreview } from '../../components/viewport-preview';

/** The draft's home page at phone and desktop widths, marked as a preview. */
export function StorePreview({ html }: { html: string }) {
  return <ViewportPreview html={html} />;
}

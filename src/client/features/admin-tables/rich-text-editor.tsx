import { lazy, Suspense } from 'react';
import { Spinner } from '../../components/spinner';
import type { QuillEditorProps } from './quill-editor';

// Quill and its CSS load only when a form with a rich-text field opens.
const QuillEditor = lazy(() => import('./quill-editor').then((m) => ({ default: m.QuillEditor })));

/** A rich-text field (SPEC.md §2 "Form modal"): Quill's snow editor, loaded on demand. */
export function RichTextEditor(props: QuillEditorProps) {
  return (
    <div className="rich-text-field mt-1.5">
      <Suspense
        fallback={
          <div
            role="status"
            className="flex h-40 items-center justify-center gap-2 rounded-lg border border-sand-300 bg-sand-50 text-sm text-ink-muted"
          >
            <Spinner />
            Loading editor…
          </div>
        }
      >
        <QuillEditor {...props} />
      </Suspense>
    </div>
  );
}

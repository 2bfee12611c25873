import { useEffect, useId, useRef, useState } from 'react';

/** The widths the owner previews a page or an email at: a phone's and a desktop's. */
const VIEWPORTS = [
  { label: 'Phone', width: 375, height: 740 },
  { label: 'Desktop', width: 1280, height: 800 },
] as const;

/**
 * What a frame shows: html written into it (it then takes this page's policy), or a document
 * the server answers a form post with, under a policy of its own (an email's inline styles).
 */
export type PreviewSource =
  { html: string } | { post: { action: string; fields: Record<string, string> } };

/**
 * Posts `post`'s fields to the named frame whenever they change: a frame navigated by a form
 * is a document of its own, which a fetch and srcdoc could not give it.
 */
function PostedFrameForm({
  target,
  post,
}: {
  target: string;
  post: { action: string; fields: Record<string, string> };
}) {
  const form = useRef<HTMLFormElement>(null);
  const sent = JSON.stringify(post);
  useEffect(() => {
    form.current?.submit();
  }, [sent]);
  return (
    <form ref={form} method="post" action={post.action} target={target} hidden>
      {Object.entries(post.fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </form>
  );
}

/**
 * The page at a viewport's real width, scaled down to the space there is. Sandboxed without
 * scripts: the preview shows what the server rendered and records no visit.
 */
function ScaledFrame({
  source,
  label,
  width,
  height,
  title,
}: {
  source: PreviewSource;
  label: string;
  width: number;
  height: number;
  title: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const name = `preview-${useId().replace(/[^a-zA-Z0-9]/g, '')}`;
  const [scale, setScale] = useState(0.25);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setScale(Math.min(1, entry.contentRect.width / width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [width]);
  return (
    <figure className="min-w-0">
      <figcaption className="mb-2 text-sm font-medium text-ink-muted">
        {label} · {width} px
      </figcaption>
      <div
        ref={box}
        className="overflow-hidden rounded-xl border border-sand-300 bg-white shadow-sm"
        style={{ height: Math.round(height * scale) }}
      >
        <iframe
          title={`${title} at ${label.toLowerCase()} width`}
          {...('html' in source ? { srcDoc: source.html } : { name })}
          sandbox="allow-same-origin"
          width={width}
          height={height}
          className="origin-top-left border-0"
          style={{ transform: `scale(${scale})` }}
        />
      </div>
      {'post' in source ? <PostedFrameForm target={name} post={source.post} /> : null}
    </figure>
  );
}

/** Server-rendered html at phone and desktop widths, side by side where there is room. */
export function ViewportPreview({
  title = 'Preview',
  ...source
}: PreviewSource & { title?: string }) {
  return (
    <div className="grid items-start gap-6 md:grid-cols-[minmax(0,1fr)_minmax(0,2.4fr)]">
      {VIEWPORTS.map((viewport) => (
        <ScaledFrame key={viewport.label} source={source} title={title} {...viewport} />
      ))}
    </div>
  );
}

import { useEffect, useRef, useState } from 'react';

/** The widths the owner previews a page or an email at: a phone's and a desktop's. */
const VIEWPORTS = [
  { label: 'Phone', width: 375, height: 740 },
  { label: 'Desktop', width: 1280, height: 800 },
] as const;

/**
 * The html at a viewport's real width, scaled down to the space there is. Sandboxed without
 * scripts: the preview shows what the server rendered and records no visit.
 */
function ScaledFrame({
  html,
  label,
  width,
  height,
  title,
}: {
  html: string;
  label: string;
  width: number;
  height: number;
  title: string;
}) {
  const box = useRef<HTMLDivElement>(null);
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
          srcDoc={html}
          sandbox="allow-same-origin"
          width={width}
          height={height}
          className="origin-top-left border-0"
          style={{ transform: `scale(${scale})` }}
        />
      </div>
    </figure>
  );
}

/** Server-rendered html at phone and desktop widths, side by side where there is room. */
export function ViewportPreview({ html, title = 'Preview' }: { html: string; title?: string }) {
  return (
    <div className="grid items-start gap-6 md:grid-cols-[minmax(0,1fr)_minmax(0,2.4fr)]">
      {VIEWPORTS.map((viewport) => (
        <ScaledFrame key={viewport.label} html={html} title={title} {...viewport} />
      ))}
    </div>
  );
}

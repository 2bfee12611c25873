import { useEffect, useRef, useState } from 'react';

/** The widths the owner previews the page at: a phone's and a desktop's. */
const VIEWPORTS = [
  { label: 'Phone', width: 375, height: 740 },
  { label: 'Desktop', width: 1280, height: 800 },
] as const;

/**
 * The page at a viewport's real width, scaled down to the space there is. Sandboxed without
 * scripts: the preview shows the server-rendered page and records no visit.
 */
function ScaledFrame({
  html,
  label,
  width,
  height,
}: {
  html: string;
  label: string;
  width: number;
  height: number;
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
          title={`Preview at ${label.toLowerCase()} width`}
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

/** The draft's home page at phone and desktop widths, marked as a preview. */
export function StorePreview({ html }: { html: string }) {
  return (
    <div className="grid items-start gap-6 md:grid-cols-[minmax(0,1fr)_minmax(0,2.4fr)]">
      {VIEWPORTS.map((viewport) => (
        <ScaledFrame key={viewport.label} html={html} {...viewport} />
      ))}
    </div>
  );
}

/**
 * The browser family and device class of a user agent (DESIGN.md "Sources and campaigns"):
 * the class only is stored, never the agent. Order matters: Edge and Opera say Chrome too,
 * Chrome says Safari.
 */
const BROWSERS: [string, RegExp][] = [
  ['edge', /\bEdg(e|A|iOS)?\//],
  ['opera', /\b(OPR|Opera)\//],
  ['samsung', /\bSamsungBrowser\//],
  ['firefox', /\b(Firefox|FxiOS)\//],
  ['chrome', /\b(Chrome|CriOS|Chromium)\//],
  ['safari', /\bVersion\/[\d.]+.*Safari\//],
];

export type ClientClass = { browser: string; device: 'mobile' | 'tablet' | 'desktop' };

export function clientClassOf(userAgent: string): ClientClass {
  const browser = BROWSERS.find(([, pattern]) => pattern.test(userAgent))?.[0] ?? 'other';
  const device = /iPad|Tablet|Android(?!.*Mobile)/i.test(userAgent)
    ? 'tablet'
    : /Mobi|iPhone|iPod|Android/i.test(userAgent)
      ? 'mobile'
      : 'desktop';
  return { browser, device };
}

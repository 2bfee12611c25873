// Builds the browser bundle into dist/client and the public routes' renderer into dist/render:
// the server renders the routes into index.html's placeholders from the published store
// content (src/server/web/index-page.ts).
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';

// As src/server/web/index-page.ts (ROOT_PLACEHOLDER, TEMPLATES_PLACEHOLDER) and page-renderer.ts.
const rootPlaceholder = '<!--app-html-->';
const templatesPlaceholder = '<!--route-templates-->';
const renderEntry = 'entry-prerender.js';

/** @param {{ root: string }} options root is the repository root */
export async function buildClient({ root }) {
  const configFile = path.join(root, 'vite.config.ts');
  const clientOut = path.join(root, 'dist/client');
  const renderOut = path.join(root, 'dist/render');

  await build({ configFile });

  const output = await build({
    configFile,
    logLevel: 'warn',
    build: {
      ssr: path.join(root, 'src/client/entry-prerender.tsx'),
      outDir: renderOut,
      emptyOutDir: true,
      copyPublicDir: false,
      ssrEmitAssets: false,
      cssCodeSplit: false,
    },
  });
  if (findEntryFile(output) !== renderEntry) {
    throw new Error(`The render build's entry is not ${renderEntry}.`);
  }
  const renderer = await import(pathToFileURL(path.join(renderOut, renderEntry)).href);

  const htmlFile = path.join(clientOut, 'index.html');
  const html = await readFile(htmlFile, 'utf8');
  const rootElement = `<div id="root">${rootPlaceholder}</div>`;
  if (!html.includes(rootElement)) throw new Error(`${htmlFile} has no ${rootElement}.`);
  const routed = html
    .replace(
      '<meta charset="UTF-8" />',
      () => `<meta charset="UTF-8" />\n    <script>${renderer.headBootScript}</script>`,
    )
    .replace(
      rootElement,
      () =>
        `${rootElement}\n    ${templatesPlaceholder}` +
        `<script>${renderer.bodyBootScript}</script>`,
    );
  if (!routed.includes(renderer.bodyBootScript) || !routed.includes(renderer.headBootScript)) {
    throw new Error(`${htmlFile}: could not place the route templates and boot scripts.`);
  }
  await writeFile(htmlFile, startAfterLargestPaint(routed, renderer));
}

/**
 * The prerendered page paints before any of the app's JavaScript is fetched or run: the entry
 * script and its module preloads leave the HTML; a JSON element names them and the inline
 * start script (prerendered-routes.ts, allowed by its CSP hash) starts them once the largest
 * paint is reported (at once on routes the browser renders itself). An external boot module
 * was itself a script fetched and run before the first paint, which Lighthouse's simulation
 * charges to the paint on a slow connection.
 */
function startAfterLargestPaint(html, prerender) {
  const entryTag = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>\s*/;
  const preloadTag = /<link rel="modulepreload" crossorigin href="(\/assets\/[^"]+\.js)">\s*/g;
  const entry = entryTag.exec(html);
  if (!entry) throw new Error('index.html has no module entry script to defer.');
  const modules = { entry: entry[1], preload: [...html.matchAll(preloadTag)].map((m) => m[1]) };
  const start =
    `<script type="application/json" id="${prerender.APP_MODULES_ELEMENT_ID}">` +
    `${JSON.stringify(modules)}</script><script>${prerender.appStartScript}</script>`;
  const bodyBoot = `<script>${prerender.bodyBootScript}</script>`;
  if (!html.includes(bodyBoot)) throw new Error('index.html has no body boot script.');
  return html
    .replace(preloadTag, '')
    .replace(entryTag, '')
    .replace(bodyBoot, () => bodyBoot + start);
}

/** The file name of the single entry chunk of a Vite (Rolldown) build result. */
function findEntryFile(result) {
  const outputs = Array.isArray(result) ? result : [result];
  for (const { output } of outputs) {
    const entry = output?.find((item) => item.type === 'chunk' && item.isEntry);
    if (entry) return entry.fileName;
  }
  throw new Error('The render build produced no entry chunk.');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildClient({ root: fileURLToPath(new URL('..', import.meta.url)) });
}

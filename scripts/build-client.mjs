// Builds the browser bundle into dist/client and prerenders the home route into its index.html.
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';

const placeholder = '<!--app-html-->';

/** @param {{ root: string }} options root is the repository root */
export async function buildClient({ root }) {
  const configFile = path.join(root, 'vite.config.ts');
  const clientOut = path.join(root, 'dist/client');
  const prerenderOut = path.join(root, 'dist/prerender');

  await build({ configFile });

  try {
    const output = await build({
      configFile,
      logLevel: 'warn',
      build: {
        ssr: path.join(root, 'src/client/entry-prerender.tsx'),
        outDir: prerenderOut,
        emptyOutDir: true,
        copyPublicDir: false,
        ssrEmitAssets: false,
        cssCodeSplit: false,
      },
    });
    const entryFile = findEntryFile(output);
    const prerender = await import(pathToFileURL(path.join(prerenderOut, entryFile)).href);
    const markup = await prerender.renderRoute('/');
    const templates = [];
    for (const route of prerender.prerenderedRoutes.filter((route) => route !== '/')) {
      templates.push(
        `<template data-route="${route}">${await prerender.renderRoute(route)}</template>`,
      );
    }

    const htmlFile = path.join(clientOut, 'index.html');
    const html = await readFile(htmlFile, 'utf8');
    const rootElement = `<div id="root">${placeholder}</div>`;
    if (!html.includes(rootElement)) throw new Error(`${htmlFile} has no ${rootElement}.`);
    const routed = html
      .replace(
        '<meta charset="UTF-8" />',
        () => `<meta charset="UTF-8" />\n    <script>${prerender.headBootScript}</script>`,
      )
      .replace(
        rootElement,
        () =>
          `<div id="root">${markup}</div>\n    ${templates.join('')}` +
          `<script>${prerender.bodyBootScript}</script>`,
      );
    if (!routed.includes(prerender.bodyBootScript) || !routed.includes(prerender.headBootScript)) {
      throw new Error(`${htmlFile}: could not place the route templates and boot scripts.`);
    }
    await writeFile(htmlFile, startAfterLargestPaint(routed, prerender));
  } finally {
    await rm(prerenderOut, { recursive: true, force: true });
  }
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
  throw new Error('The prerender build produced no entry chunk.');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildClient({ root: fileURLToPath(new URL('..', import.meta.url)) });
}

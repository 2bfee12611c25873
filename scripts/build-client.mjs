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
    const { render } = await import(pathToFileURL(path.join(prerenderOut, entryFile)).href);
    const markup = render();

    const htmlFile = path.join(clientOut, 'index.html');
    const html = await readFile(htmlFile, 'utf8');
    if (!html.includes(placeholder)) {
      throw new Error(`${htmlFile} has no ${placeholder} placeholder to prerender into.`);
    }
    await writeFile(
      htmlFile,
      html.replace(placeholder, () => markup),
    );
  } finally {
    await rm(prerenderOut, { recursive: true, force: true });
  }
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

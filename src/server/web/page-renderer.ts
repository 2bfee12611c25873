import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RenderRoute } from './index-page';

/** The render bundle's entry, beside the built site: dist/render next to dist/client. */
export const RENDER_ENTRY = 'entry-prerender.js';

export function rendererFile(clientDir: string): string {
  return path.join(clientDir, '..', 'render', RENDER_ENTRY);
}

/**
 * The public routes' renderer the build makes of src/client/entry-prerender.tsx (the same
 * React components the browser hydrates), or undefined for a site built without it.
 */
export async function loadRenderer(clientDir: string): Promise<RenderRoute | undefined> {
  const file = rendererFile(clientDir);
  if (!existsSync(file)) return undefined;
  const module = (await import(pathToFileURL(file).href)) as { renderRoute: RenderRoute };
  return module.renderRoute;
}

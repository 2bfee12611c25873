import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { publicConfigDefaults } from '../../shared/public-config-defaults';
import { renderThread, type RenderThread } from './render-thread';

/** A renderer module as the build makes one: renderRoute(location, config, year). */
async function rendererModule(source: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'soul-reset-renderer-'));
  const file = path.join(dir, 'entry-prerender.js');
  await writeFile(file, source);
  return file;
}

const echo = `import { threadId } from 'node:worker_threads';
export async function renderRoute(location, config, year) {
  if (location === '/broken') throw new Error('No such screen: ' + location);
  return location + ' ' + config.store.product.name + ' ' + year + ' thread ' + threadId;
}`;

let thread: RenderThread | undefined;
afterEach(async () => {
  await thread?.close();
  thread = undefined;
});

const config = publicConfigDefaults;
const threadOf = (html: string) => Number(html.split(' thread ')[1]);

describe('render thread', () => {
  it('renders in a thread of its own, one at a time or several at once', async () => {
    thread = renderThread(await rendererModule(echo), 60_000);
    const html = await thread.renderRoute('/', config, 2031);
    expect(html).toMatch(/^\/ Soul Reset Bundle 2031 thread \d+$/);
    expect(threadOf(html)).toBeGreaterThan(0);
    const many = await Promise.all(
      ['/a', '/b', '/c'].map((route) => thread!.renderRoute(route, config, 2032)),
    );
    expect(many.map((page) => page.split(' thread ')[0])).toEqual([
      '/a Soul Reset Bundle 2032',
      '/b Soul Reset Bundle 2032',
      '/c Soul Reset Bundle 2032',
    ]);
    expect(new Set([html, ...many].map(threadOf)).size).toBe(1);
  });

  it('ends the thread once idle and starts another for the next render', async () => {
    thread = renderThread(await rendererModule(echo), 100);
    const first = await thread.renderRoute('/', config, 2031);
    expect(thread.running()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(thread.running()).toBe(false);
    const second = await thread.renderRoute('/', config, 2031);
    expect(threadOf(second)).not.toBe(threadOf(first));
  });

  it("passes on the renderer's error, and renders again after it", async () => {
    thread = renderThread(await rendererModule(echo), 60_000);
    await expect(thread.renderRoute('/broken', config, 2031)).rejects.toThrow(
      'No such screen: /broken',
    );
    expect(await thread.renderRoute('/', config, 2031)).toContain('/ Soul Reset Bundle 2031');
  });

  it('fails the render, never hangs it, when the renderer cannot load or the thread dies', async () => {
    thread = renderThread(await rendererModule('export const renderRoute = ;'), 60_000);
    await expect(thread.renderRoute('/', config, 2031)).rejects.toThrow();
    expect(thread.running()).toBe(false);

    await thread.close();
    const dying = `export async function renderRoute() { process.exit(3); }`;
    thread = renderThread(await rendererModule(dying), 60_000);
    await expect(thread.renderRoute('/', config, 2031)).rejects.toThrow(
      'The render thread stopped (exit code 3).',
    );
  });
});

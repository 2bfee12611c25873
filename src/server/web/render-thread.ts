import { Worker } from 'node:worker_threads';
import type { RenderRoute } from './index-page';

/** How long the render thread waits for more work before it ends and gives its memory back. */
export const RENDER_THREAD_IDLE_MS = 5_000;

/** Built beside the server's chunks (scripts/build.mjs), beside this module in the sources. */
const WORKER_FILE = new URL('./render-worker.mjs', import.meta.url);

export type RenderThread = {
  /** `rendererFile`'s renderRoute, called in the thread (started when there is work). */
  renderRoute: RenderRoute;
  /** Whether a thread is running now. */
  running(): boolean;
  close(): Promise<void>;
};

type Job = { resolve(html: string): void; reject(error: Error): void };
type Answer = { id: number; html?: string; error?: string };

/**
 * Renders routes with the build's renderer in a worker thread that lives while there is work
 * and `idleMs` after it. Rendering runs at start, after a publish, for a preview and at New
 * Year; the rest of the time the server carries neither React's server renderer nor the
 * young generation a render grows (about 35 MB of the idle server's memory).
 */
export function renderThread(rendererFile: string, idleMs = RENDER_THREAD_IDLE_MS): RenderThread {
  let current: { worker: Worker; jobs: Map<number, Job> } | undefined;
  let idle: NodeJS.Timeout | undefined;
  let nextId = 0;

  function start() {
    const jobs = new Map<number, Job>();
    const worker = new Worker(WORKER_FILE, { workerData: { rendererFile } });
    // A thread waiting for work does not keep the process alive.
    worker.unref();
    const thread = { worker, jobs };
    const failAll = (error: Error) => {
      if (current === thread) current = undefined;
      for (const job of jobs.values()) job.reject(error);
      jobs.clear();
    };
    worker.on('message', ({ id, html, error }: Answer) => {
      const job = jobs.get(id);
      jobs.delete(id);
      if (error === undefined) job?.resolve(html ?? '');
      else job?.reject(new Error(error));
      if (jobs.size === 0 && current === thread) {
        idle = setTimeout(() => void stop(), idleMs).unref();
      }
    });
    worker.on('error', failAll);
    worker.on('exit', (code) =>
      failAll(new Error(`The render thread stopped (exit code ${code}).`)),
    );
    return thread;
  }

  async function stop() {
    clearTimeout(idle);
    const thread = current;
    current = undefined;
    await thread?.worker.terminate();
  }

  return {
    renderRoute: (location, config, year) => {
      clearTimeout(idle);
      const thread = (current ??= start());
      const id = nextId++;
      return new Promise<string>((resolve, reject) => {
        thread.jobs.set(id, { resolve, reject });
        thread.worker.postMessage({ id, location, config, year });
      });
    },
    running: () => current !== undefined,
    close: stop,
  };
}

// The public routes' renderer (dist/render) in a worker thread (render-thread.ts): React's
// server renderer and the garbage of each render live and die with this thread, outside the
// server's own heap. Plain JavaScript, so the same file runs from the sources and the build.
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

const { renderRoute } = await import(pathToFileURL(workerData.rendererFile).href);

parentPort.on('message', ({ id, location, config, year }) => {
  renderRoute(location, config, year).then(
    (html) => parentPort.postMessage({ id, html }),
    (error) =>
      parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) }),
  );
});

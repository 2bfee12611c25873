/**
 * Records outcomes together: everything that finished while the last write ran goes into the
 * next one, so a burst of sent emails costs a few statements, not one each. The promise of
 * each entry settles with its batch's write. With `gatherMs`, each write first waits that long
 * for more (for callers that do not wait on the write to go on).
 */
export function createBatchRecorder<T>(
  write: (batch: T[]) => Promise<void>,
  { gatherMs = 0 }: { gatherMs?: number } = {},
) {
  let waiting: { entry: T; done: (error?: unknown) => void }[] = [];
  let writing = false;

  async function flush() {
    writing = true;
    while (waiting.length > 0) {
      if (gatherMs > 0) await new Promise((resolve) => setTimeout(resolve, gatherMs));
      const batch = waiting;
      waiting = [];
      try {
        await write(batch.map((item) => item.entry));
        for (const item of batch) item.done();
      } catch (error) {
        for (const item of batch) item.done(error);
      }
    }
    writing = false;
  }

  return (entry: T) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ entry, done: (error) => (error ? reject(error) : resolve()) });
      if (!writing) void flush();
    });
}

/**
 * The requests an instance is answering, counted by the thread that answers them and read by
 * its mail thread, through shared memory: no message, no lock. List mail starts its sends
 * between requests, so a broadcast does not take the cores from a visitor's page.
 */
export type VisitorLoad = {
  /** The count's memory, for the mail thread (workerData). */
  buffer: SharedArrayBuffer;
  /** A request began; the returned function ends it (once, however often it is called). */
  begin(): () => void;
};

export function createVisitorLoad(): VisitorLoad {
  const buffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  const count = new Int32Array(buffer);
  return {
    buffer,
    begin() {
      Atomics.add(count, 0, 1);
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        Atomics.sub(count, 0, 1);
      };
    },
  };
}

/** Whether requests are being answered now, read from a VisitorLoad's buffer. */
export function visitorsWaiting(buffer: SharedArrayBuffer): () => boolean {
  const count = new Int32Array(buffer);
  return () => Atomics.load(count, 0) > 0;
}

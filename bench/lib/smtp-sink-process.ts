import path from 'node:path';
import { forkSink } from '../../tests/support/sink-process';

export type SinkProcess = {
  url: string;
  /** Answers each message this many milliseconds late from now on. */
  delayEach(ms: number): Promise<void>;
  /** Messages received so far. */
  count(): Promise<number>;
  close(): Promise<void>;
};

/** Starts bench/smtp-sink-server.ts in a process of its own. */
export async function startSinkProcess(root: string): Promise<SinkProcess> {
  const sink = await forkSink<{ count: number }>(path.join(root, 'bench/smtp-sink-server.ts'));
  return {
    url: sink.url,
    delayEach: async (delayMs) => void (await sink.ask({ delayMs })),
    count: async () => (await sink.ask({ count: true })).count,
    close: sink.close,
  };
}

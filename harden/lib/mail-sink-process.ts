import path from 'node:path';
import { forkSink } from '../../tests/support/sink-process';

export type MailSinkProcess = {
  url: string;
  pid: number;
  /** Normal answers, each answer `delayMs` late, or silence (see harden/mail-sink-server.ts). */
  setMode(mode: 'normal' | 'stall'): Promise<void>;
  setMode(mode: 'slow', delayMs: number): Promise<void>;
  /** Every message key received so far, with the times it arrived (one per copy). */
  received(): Promise<Map<string, number[]>>;
  /** Per key, the copies taken after the client had hung up (see mail-sink-server.ts). */
  late(): Promise<Map<string, number>>;
  close(): Promise<void>;
};

/** Starts harden/mail-sink-server.ts in a process of its own. */
export async function startMailSinkProcess(root: string): Promise<MailSinkProcess> {
  const sink = await forkSink<{ received: [string, number[]][]; late: [string, number][] }>(
    path.join(root, 'harden/mail-sink-server.ts'),
  );
  return {
    url: sink.url,
    pid: sink.pid,
    setMode: async (mode: 'normal' | 'slow' | 'stall', delayMs?: number) =>
      void (await sink.ask({ mode, ...(delayMs !== undefined && { delayMs }) })),
    received: async () => new Map((await sink.ask({})).received),
    late: async () => new Map((await sink.ask({})).late),
    close: sink.close,
  };
}

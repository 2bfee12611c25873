import { fork } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';

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
  const child = fork(path.join(root, 'harden/mail-sink-server.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = /smtp:\/\/\S+/.exec(output);
      if (match) resolve(match[0]);
    });
    child.once('exit', (code) => reject(new Error(`The mail sink exited with ${code}`)));
  });
  // One request at a time: each answer belongs to the request before it.
  let queue: Promise<unknown> = Promise.resolve();
  const ask = (request: object) => {
    const answer = queue.then(async () => {
      child.send(request);
      const [message] = (await once(child, 'message')) as [
        { received: [string, number[]][]; late: [string, number][] },
      ];
      return message;
    });
    queue = answer.catch(() => undefined);
    return answer;
  };
  return {
    url,
    pid: child.pid!,
    setMode: async (mode: 'normal' | 'slow' | 'stall', delayMs?: number) =>
      void (await ask({ mode, ...(delayMs !== undefined && { delayMs }) })),
    received: async () => new Map((await ask({})).received),
    late: async () => new Map((await ask({})).late),
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.disconnect();
      await exited;
    },
  };
}

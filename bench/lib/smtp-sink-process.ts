import { fork } from 'node:child_process';
import path from 'node:path';
import { once } from 'node:events';

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
  const child = fork(path.join(root, 'bench/smtp-sink-server.ts'), [], {
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
    child.once('exit', (code) => reject(new Error(`The SMTP sink exited with ${code}`)));
  });
  const ask = async (request: object) => {
    child.send(request);
    const [answer] = (await once(child, 'message')) as [{ count: number }];
    return answer.count;
  };
  return {
    url,
    delayEach: async (delayMs) => void (await ask({ delayMs })),
    count: () => ask({ count: true }),
    async close() {
      const exited = once(child, 'exit');
      child.disconnect();
      await exited;
    },
  };
}

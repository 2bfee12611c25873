import { fork } from 'node:child_process';
import { once } from 'node:events';

export type ForkedSink<Answer> = {
  url: string;
  pid: number;
  /** Sends a request over IPC and resolves with its answer; one request at a time. */
  ask(request: object): Promise<Answer>;
  close(): Promise<void>;
};

/**
 * Starts an SMTP server script (it prints its smtp:// URL and answers IPC requests) in a
 * process of its own, so the load generator's event loop does not pace its answers.
 */
export async function forkSink<Answer>(script: string): Promise<ForkedSink<Answer>> {
  const child = fork(script, [], {
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
  // Each answer belongs to the request before it.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    url,
    pid: child.pid!,
    ask(request) {
      const answer = queue.then(async () => {
        child.send(request);
        const [message] = (await once(child, 'message')) as [Answer];
        return message;
      });
      queue = answer.catch(() => undefined);
      return answer;
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.disconnect();
      await exited;
    },
  };
}

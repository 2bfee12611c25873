import path from 'node:path';
import { parseMail } from '../../tests/support/mime';
import { codeInMail } from '../../tests/support/sign-in';
import { forkSink } from '../../tests/support/sink-process';
import { authApi } from '../../src/shared/auth';
import { postJson } from './sign-in';

export type Received = {
  count: number;
  firstAt: number;
  lastAt: number;
  /** Each message's subject, once keepSubjects() was called. */
  subjects?: string[];
};

type Answer = { total: number; recipients?: [string, Received][]; kept?: string | null };

export type RecipientSink = {
  url: string;
  /** Answers each message this many milliseconds late from now on. */
  delayEach(ms: number): Promise<void>;
  /** Messages accepted since the start or the last reset. */
  total(): Promise<number>;
  /** What each address received since the start or the last reset. */
  recipients(): Promise<Map<string, Received>>;
  reset(): Promise<void>;
  /** From now on keeps every message's subject per address (costs a copy of each message). */
  keepSubjects(): Promise<void>;
  /** Signs in to a running server with the code mailed here; returns the session cookie. */
  signIn(url: string, email: string): Promise<string>;
  close(): Promise<void>;
};

/** Starts bench/recipient-sink-server.ts in a process of its own. */
export async function startRecipientSink(root: string): Promise<RecipientSink> {
  const sink = await forkSink<Answer>(path.join(root, 'bench/recipient-sink-server.ts'));
  const total = async () => (await sink.ask({})).total;
  return {
    url: sink.url,
    delayEach: async (delayMs) => void (await sink.ask({ delayMs })),
    total,
    recipients: async () => new Map((await sink.ask({ recipients: true })).recipients),
    reset: async () => void (await sink.ask({ reset: true })),
    keepSubjects: async () => void (await sink.ask({ subjects: true })),
    async signIn(url, email) {
      await sink.ask({ keep: email });
      const before = (await sink.ask({ text: email })).kept;
      await postJson(url, authApi.sendCode, { email, type: 'sign-in' });
      const deadline = Date.now() + 30_000;
      let raw: string | null | undefined;
      while ((raw = (await sink.ask({ text: email })).kept) === before || !raw) {
        if (Date.now() > deadline) throw new Error(`No sign-in code for ${email} within 30 s`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const otp = codeInMail(parseMail(raw).text);
      if (!otp) throw new Error(`No code in the sign-in mail to ${email}`);
      const response = await postJson(url, authApi.signIn, { email, otp });
      const cookie = response.headers
        .getSetCookie()
        .map((line) => line.split(';')[0]!)
        .find((pair) => pair.includes('session_token'));
      if (!cookie) throw new Error('Sign-in set no session cookie.');
      return cookie;
    },
    close: sink.close,
  };
}

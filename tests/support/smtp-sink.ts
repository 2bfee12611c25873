import { SMTPServer } from 'smtp-server';
import type { AddressInfo, Socket } from 'node:net';
import { parseMail, type ReceivedMail } from './mime';

export type SinkMail = ReceivedMail & { envelopeTo: string[] };

type StallPoint = 'end of data' | 'mail from';

export type SmtpSink = {
  /** smtp://127.0.0.1:<port> */
  url: string;
  messages: SinkMail[];
  /** Resolves with the first message (already received or arriving) that matches. */
  waitFor(match: (mail: SinkMail) => boolean, timeoutMs?: number): Promise<SinkMail>;
  /** From now on, refuse every message with a 550 (a permanent SMTP failure). */
  rejectAll(reject: boolean): void;
  /** Refuses the next `count` messages with a 451 (a temporary SMTP failure), then accepts. */
  refuseTemporarily(count: number): void;
  /** From now on, answer each message this many milliseconds late (a remote provider's pace). */
  delayEach(ms: number): void;
  /**
   * Leaves every message that matches unanswered (a mail server that hangs on it) until the
   * returned function is called; then accepts them.
   */
  hold(match: (mail: SinkMail) => boolean): () => void;
  /** Messages left unanswered by hold() right now. */
  held(): number;
  /**
   * From now on, takes every message's content and never answers it (a mail server that stops
   * answering mid-message), or with 'mail from' never answers the sender (so never gets the
   * content), until the returned function is called: then the connections it left hanging are
   * dropped, unanswered, as a restarted server drops them, and new messages are accepted
   * again. Returns how many messages it left unanswered.
   */
  stall(at?: StallPoint): () => number;
  /** Messages left unanswered while stalled. */
  stalled(): number;
  close(): Promise<void>;
};

/** A received message, parsed the first time a part of it is read (the bench only counts). */
function receivedMail(raw: string, envelopeTo: string[]): SinkMail {
  let parsed: ReceivedMail | undefined;
  const part = () => (parsed ??= parseMail(raw));
  return {
    raw,
    envelopeTo,
    get headers() {
      return part().headers;
    },
    get subject() {
      return part().subject;
    },
    get html() {
      return part().html;
    },
    get text() {
      return part().text;
    },
  };
}

/** A real SMTP server on a free port that keeps what it receives, for tests. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: SinkMail[] = [];
  const waiters = new Set<() => void>();
  let rejecting = false;
  let refusingTemporarily = 0;
  let delayMs = 0;
  let holding: { match: (mail: SinkMail) => boolean; held: (() => void)[] } | undefined;
  let stalling: StallPoint | undefined;
  let stalledCount = 0;
  const sockets = new Set<Socket>();

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onMailFrom(_address, _session, callback) {
      if (stalling === 'mail from') stalledCount += 1;
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => void (delayMs > 0 ? setTimeout(finish, delayMs) : finish()));
      const finish = () => {
        if (stalling === 'end of data') {
          stalledCount += 1;
          return;
        }
        if (rejecting) {
          callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
          return;
        }
        if (refusingTemporarily > 0) {
          refusingTemporarily -= 1;
          callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
          return;
        }
        const envelopeTo = session.envelope.rcptTo.map((recipient) => recipient.address);
        const mail = receivedMail(Buffer.concat(chunks).toString('utf8'), envelopeTo);
        const accept = () => {
          messages.push(mail);
          for (const wake of waiters) wake();
          callback();
        };
        if (holding?.match(mail)) holding.held.push(accept);
        else accept();
      };
    },
  });
  // A client killed mid-session resets its connection; that must not take the sink down.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(match);
          if (!found) return false;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(found);
          return true;
        };
        const wake = () => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(
            new Error(`No matching mail within ${timeoutMs} ms (${messages.length} received)`),
          );
        }, timeoutMs);
        if (!check()) waiters.add(wake);
      });
    },
    rejectAll(reject) {
      rejecting = reject;
    },
    refuseTemporarily(count) {
      refusingTemporarily = count;
    },
    delayEach(ms) {
      delayMs = ms;
    },
    hold(match) {
      const current = { match, held: [] as (() => void)[] };
      holding = current;
      return () => {
        if (holding === current) holding = undefined;
        for (const accept of current.held.splice(0)) accept();
      };
    },
    stall(at = 'end of data') {
      stalling = at;
      const since = stalledCount;
      return () => {
        stalling = undefined;
        for (const socket of sockets) socket.destroy();
        return stalledCount - since;
      };
    },
    stalled: () => stalledCount,
    held: () => holding?.held.length ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

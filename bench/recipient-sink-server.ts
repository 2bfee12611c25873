/**
 * A mail server that counts what each recipient received, in a process of its own (as a
 * provider is): the broadcast bench and harden parts send tens of thousands of messages, which
 * the test sink would keep whole. It keeps, per recipient address, the number of messages
 * accepted and the first and last acceptance time (ms since the epoch), and the last message of
 * the addresses it is asked to keep (a sign-in code). Prints its URL. Over IPC it takes
 * `{ delayMs }` (answer each message that late), `{ keep: address }`, `{ reset: true }` (forget
 * the counts), `{ subjects: true }` (from now on also keep each message's Subject line per
 * address) and `{ recipients: true }`, and answers every request with `{ total }` (messages
 * accepted since the last reset), plus `recipients` when asked, `kept` when `{ text: address }`.
 */
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { setPriority } from 'node:os';

// The provider it stands for is another machine: its work here yields to the server's.
setPriority(10);

type Received = { count: number; firstAt: number; lastAt: number; subjects?: string[] };

let delayMs = 0;
let total = 0;
let keepSubjects = false;
const received = new Map<string, Received>();
const keep = new Set<string>();
const kept = new Map<string, string>();

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    const addresses = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
    const chunks: Buffer[] | undefined =
      keepSubjects || addresses.some((a) => keep.has(a)) ? [] : undefined;
    stream.on('data', (chunk: Buffer) => chunks?.push(chunk));
    stream.on('end', () => {
      const accept = () => {
        const now = Date.now();
        const raw = chunks && Buffer.concat(chunks).toString('utf8');
        // The plain ASCII subjects the harness sends: the header's first line is enough.
        const subject = keepSubjects ? (/^Subject: ?(.*)$/im.exec(raw ?? '')?.[1] ?? '') : '';
        for (const address of addresses) {
          let seen = received.get(address);
          if (seen) {
            seen.count += 1;
            seen.lastAt = now;
          } else {
            seen = { count: 1, firstAt: now, lastAt: now };
            received.set(address, seen);
          }
          if (keepSubjects) (seen.subjects ??= []).push(subject.trim());
          if (raw && keep.has(address)) kept.set(address, raw);
        }
        total += 1;
        callback();
      };
      if (delayMs > 0) setTimeout(accept, delayMs);
      else accept();
    });
  },
});
// A client killed mid-session resets its connection: that must not end the server.
server.on('error', () => {});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.server.address() as AddressInfo;

process.on(
  'message',
  (request: {
    delayMs?: number;
    keep?: string;
    reset?: true;
    recipients?: true;
    text?: string;
    subjects?: boolean;
  }) => {
    if (request.delayMs !== undefined) delayMs = request.delayMs;
    if (request.subjects !== undefined) keepSubjects = request.subjects;
    if (request.keep) keep.add(request.keep.toLowerCase());
    if (request.reset) {
      received.clear();
      total = 0;
    }
    process.send?.({
      total,
      ...(request.recipients && { recipients: [...received] }),
      ...(request.text !== undefined && { kept: kept.get(request.text.toLowerCase()) ?? null }),
    });
  },
);
process.on('disconnect', () => void server.close(() => process.exit(0)));
console.log(`smtp://127.0.0.1:${port}`);

/**
 * The harness's mail server, a real SMTP server in a process of its own (as a provider is):
 * the load generator's event loop must not pace its answers. Prints its URL. Over IPC it
 * takes `{ mode: 'normal' }`, `{ mode: 'slow', delayMs }` (answer each message that late) and
 * `{ mode: 'stall' }` (from now on answer nothing: no greeting, no reply to a command, and a
 * message being received or waiting for its slow answer is never answered; those sessions
 * stay silent for good, as a half-dead connection does, even after `normal` again), and
 * answers every request with `{ received, late }`: for each message key (mail-key.ts) the
 * times (ms since the epoch) it was accepted, and how many of those copies were accepted after
 * the client had hung up (it gave up waiting for the answer to its end of data, so it cannot
 * know the message went through: SMTP's own duplicate window, RFC 1047).
 */
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { parseMail } from '../tests/support/mime';
import { mailKey } from './lib/mail-key';

type Mode = 'normal' | 'slow' | 'stall';
let mode: Mode = 'normal';
let delayMs = 0;
const received = new Map<string, number[]>();
const late = new Map<string, number>();
const closed = new Set<string>();

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onClose(session) {
    closed.add(session.id);
  },
  onConnect(_session, callback) {
    if (mode !== 'stall') callback();
  },
  onMailFrom(_address, _session, callback) {
    if (mode !== 'stall') callback();
  },
  onRcptTo(_address, _session, callback) {
    if (mode !== 'stall') callback();
  },
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    // Stalled mid-message: the rest of the message is never read nor answered.
    stream.on('data', (chunk: Buffer) => (mode === 'stall' ? stream.pause() : chunks.push(chunk)));
    stream.on('end', () => {
      const accept = () => {
        if (mode === 'stall') return;
        const mail = parseMail(Buffer.concat(chunks).toString('utf8'));
        for (const recipient of session.envelope.rcptTo) {
          const key = mailKey(recipient.address, mail.subject, mail.text);
          received.set(key, [...(received.get(key) ?? []), Date.now()]);
          if (closed.has(session.id)) late.set(key, (late.get(key) ?? 0) + 1);
        }
        callback();
      };
      if (mode === 'slow' && delayMs > 0) setTimeout(accept, delayMs);
      else accept();
    });
  },
});
// A client that gives up mid-session resets its connection: that must not end the server.
server.on('error', () => {});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.server.address() as AddressInfo;

process.on('message', (request: { mode?: Mode; delayMs?: number }) => {
  if (request.mode) mode = request.mode;
  if (request.delayMs !== undefined) delayMs = request.delayMs;
  process.send?.({ received: [...received], late: [...late] });
});
process.on('disconnect', () => process.exit(0));
console.log(`smtp://127.0.0.1:${port}`);

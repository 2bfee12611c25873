/**
 * The bench's mail server, in a process of its own as a real provider would be: the load
 * generator's event loop must not slow down its answers. Prints its URL; over IPC it takes
 * `{ delayMs }` (answer each message that late) and answers `{ count: true }` with the number
 * of messages received.
 */
import { startSmtpSink } from '../tests/support/smtp-sink';

const sink = await startSmtpSink();
process.on('message', (request: { delayMs?: number; count?: true }) => {
  if (request.delayMs !== undefined) sink.delayEach(request.delayMs);
  process.send?.({ count: sink.messages.length });
});
process.on('disconnect', () => void sink.close().then(() => process.exit(0)));
console.log(sink.url);

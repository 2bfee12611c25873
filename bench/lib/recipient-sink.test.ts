import nodemailer from 'nodemailer';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startRecipientSink, type RecipientSink } from './recipient-sink';

const root = fileURLToPath(new URL('../..', import.meta.url));
let sink: RecipientSink | undefined;
afterEach(async () => {
  await sink?.close();
  sink = undefined;
});

describe('the recipient-counting mail server', () => {
  it('counts what each address received, late when asked, and forgets on reset', async () => {
    sink = await startRecipientSink(root);
    const transporter = nodemailer.createTransport({ url: sink.url, pool: true });
    const send = (to: string) =>
      transporter.sendMail({ from: 'a@example.com', to, subject: 'Hi', text: 'Hello' });
    try {
      await Promise.all([
        send('One@Example.com'),
        send('one@example.com'),
        send('two@example.com'),
      ]);
      expect(await sink.total()).toBe(3);
      const received = await sink.recipients();
      expect(received.get('one@example.com')?.count).toBe(2);
      expect(received.get('two@example.com')?.count).toBe(1);

      await sink.delayEach(200);
      const started = performance.now();
      await send('three@example.com');
      expect(performance.now() - started).toBeGreaterThanOrEqual(190);

      await sink.keepSubjects();
      await send('two@example.com');
      expect((await sink.recipients()).get('two@example.com')).toMatchObject({
        count: 2,
        subjects: ['Hi'],
      });

      await sink.reset();
      expect(await sink.total()).toBe(0);
      expect((await sink.recipients()).size).toBe(0);
    } finally {
      transporter.close();
    }
  });
});

import fp from 'fastify-plugin';
import { createListSender, type ListSender } from './list-sender';

declare module 'fastify' {
  interface FastifyInstance {
    /** The sender of broadcasts and sequence steps in this instance. */
    listSender: ListSender;
  }
}

/**
 * Runs the list sender from the moment the app is ready until it closes: every instance sends
 * list mail, within the rate they share; graceful shutdown hands its claims back.
 */
export const listSenderPlugin = fp(
  async (app) => {
    const sender = createListSender({
      db: app.database.db,
      mailer: app.mailer,
      log: app.log,
      config: app.config,
    });
    app.decorate('listSender', sender);
    app.addHook('onReady', async () => sender.start());
    app.addHook('preClose', async () => sender.stop());
  },
  { name: 'list-sender', dependencies: ['mail'] },
);

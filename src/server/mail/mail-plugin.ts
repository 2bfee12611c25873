import fp from 'fastify-plugin';
import { startMailThread, type MailThread } from './mail-thread';

declare module 'fastify' {
  interface FastifyInstance {
    /** The mail thread of this instance, when mail runs off the request thread. */
    mailThread: MailThread | undefined;
  }
}

export type MailPluginOptions = {
  /**
   * Compose and send mail in a worker thread of its own (the server does), instead of on the
   * thread that answers requests (an app built in-process for a test).
   */
  thread?: boolean;
};

/**
 * Decorates `app.mailer` with the configured transport and closes it with the app: in the
 * mail thread when there is one (the request thread then only hands it messages), else here.
 */
export const mailPlugin = fp<MailPluginOptions>(
  async (instance, options) => {
    if (options.thread) {
      const thread = startMailThread({
        config: instance.config,
        database: instance.database,
        log: instance.log,
      });
      instance.decorate('mailThread', thread);
      instance.decorate('mailer', thread.mailer);
      // Counted from the request's start to its response's end (or its connection's close).
      instance.addHook('onRequest', (_request, reply, done) => {
        reply.raw.once('close', thread.visitorLoad.begin());
        done();
      });
      instance.addHook('onClose', () => thread.close());
      return;
    }
    // Loaded only here: with a mail thread, the transports stay out of this thread's memory.
    const { createMailer } = await import('./mailer');
    const mailer = createMailer(instance.config, instance.log);
    instance.decorate('mailThread', undefined);
    instance.decorate('mailer', mailer);
    instance.addHook('onClose', () => mailer.close());
  },
  { name: 'mail' },
);

import fp from 'fastify-plugin';
import { createMailer } from './mailer';

/** Decorates `app.mailer` with the configured transport and closes it with the app. */
export const mailPlugin = fp(
  async (instance) => {
    const mailer = createMailer(instance.config, instance.log);
    instance.decorate('mailer', mailer);
    instance.addHook('onClose', () => mailer.close());
  },
  { name: 'mail' },
);

import fp from 'fastify-plugin';
import type { ListSender } from './list-sender';

declare module 'fastify' {
  interface FastifyInstance {
    /** The sender of broadcasts and sequence steps in this instance. */
    listSender: ListSender;
  }
}

/**
 * The list sender of this instance (mail-jobs.ts `broadcasts`): every instance sends list
 * mail, within the rate they share, in its mail thread with the delivery worker; the mail
 * queue plugin starts it when the app is ready and stops it (claims handed back) on close.
 */
export const listSenderPlugin = fp(
  async (app) => {
    app.decorate('listSender', app.mailJobs.broadcasts);
  },
  { name: 'list-sender', dependencies: ['mail-queue'] },
);

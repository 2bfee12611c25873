import fp from 'fastify-plugin';
import {
  createDeliveryWorker,
  type DeliveryWorker,
  type DeliveryWorkerOptions,
} from './delivery-worker';

declare module 'fastify' {
  interface FastifyInstance {
    /** The retry worker of mail_deliveries in this instance. */
    deliveryWorker: DeliveryWorker;
  }
}

/**
 * Runs the delivery worker from the moment the app is ready until it closes (graceful
 * shutdown waits for the sends in flight to be recorded).
 */
export const mailQueuePlugin = fp<Pick<DeliveryWorkerOptions, 'onPermanentFailure'>>(
  async (app, options) => {
    const worker = createDeliveryWorker({
      db: app.database.db,
      mailer: app.mailer,
      log: app.log,
      retryDelaysMs: app.config.mailRetryDelaysMs,
      mailTimeoutMs: app.config.mailTimeoutMs,
      onPermanentFailure: options.onPermanentFailure,
    });
    app.decorate('deliveryWorker', worker);
    app.addHook('onReady', async () => worker.start());
    app.addHook('preClose', async () => worker.stop());
  },
  { name: 'mail-queue', dependencies: ['mail'] },
);

import fp from 'fastify-plugin';
import { eventRoutes } from './event-routes';
import { insightsRoutes } from './insights-routes';

/** Insights (DESIGN.md "Insights"): the collector's events in, the owner's counts out. */
export const insightsPlugin = fp(
  async (app) => {
    await eventRoutes(app);
    app.registerAdminRoutes(insightsRoutes);
  },
  { name: 'insights', dependencies: ['admin'] },
);

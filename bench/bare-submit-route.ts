import type { FastifyInstance } from 'fastify';

/**
 * POST /__bench/bare-submit: the duplicate check, insert and status update of an order
 * submission, with no validation, mail or rate limit: the floor the real route is compared to.
 */
export async function bareSubmitRoute(app: FastifyInstance) {
  app.post<{ Body: { name: string; email: string; message?: string } }>(
    '/__bench/bare-submit',
    async (request) => {
      const { name, email, message = '' } = request.body;
      const { db } = app.database;
      const duplicate = await db
        .selectFrom('form_submissions')
        .select('id')
        .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
        .where('email_sent', '=', true)
        .limit(1)
        .executeTakeFirst();
      if (duplicate) return { status: 'duplicate' };
      const row = await db
        .insertInto('form_submissions')
        .values({
          name,
          email,
          message,
          purchase_intent: true,
          email_sent: false,
          email_sent_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const now = new Date();
      await db
        .updateTable('form_submissions')
        .set({ email_sent: true, email_sent_at: now, updated_at: now })
        .where('id', '=', row.id)
        .execute();
      return { status: 'success' };
    },
  );
}

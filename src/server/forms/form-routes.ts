import type { FastifyError, FastifyPluginAsync } from 'fastify';
import { isFormKind } from '../../shared/forms/form-fields';
import type { FormAnswer } from '../../shared/forms/form-api';
import { createListService } from '../list/list-service';
import { createFormService } from './submit-service';

/** A message of 5,000 characters fits several times over; anything bigger is not a form. */
export const FORM_BODY_LIMIT = 32 * 1024;
const RATE_WINDOW_MS = 10 * 60_000;

const unavailableMessage = 'The service is temporarily unavailable. Please try again in a moment.';
const failedMessage = 'Something went wrong on our side. Please try again later.';

/** Fastify's own refusals (before the handler runs), told in words a visitor understands. */
function refusalMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The form is too large to send. Please shorten your message.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'The form could not be read. Please reload the page and try again.';
    default:
      return error.statusCode === 400 && error instanceof SyntaxError
        ? 'The form could not be read. Please reload the page and try again.'
        : error.message;
  }
}

/**
 * POST /api/forms/:form (order | contact | refund | terms-feedback | free-guide), JSON
 * `{ name, email, message?, website? }`. Answers `{ status: 'success' | 'duplicate', ... }`,
 * or `{ status: 'error', message }` with a 4xx for a refused submission and a 5xx when the
 * database failed. All forms share FORM_RATE_LIMIT per client address per 10 minutes.
 */
export const formRoutes: FastifyPluginAsync = async (app) => {
  const service = createFormService({
    db: app.database.db,
    mailer: app.mailer,
    config: app.config,
    store: app.store,
    wakeWorker: () => app.deliveryWorker.wake(),
    list: createListService({
      db: app.database.db,
      config: app.config,
      store: app.store,
      wakeWorker: () => app.deliveryWorker.wake(),
    }),
  });

  app.post<{ Params: { form: string } }>(
    '/api/forms/:form',
    {
      bodyLimit: FORM_BODY_LIMIT,
      config: {
        rateLimit: {
          max: app.config.formRateLimit,
          timeWindow: RATE_WINDOW_MS,
          errorResponseBuilder: (_request, context) =>
            Object.assign(
              new Error(
                `Too many submissions from your network. Please try again in ${context.after}.`,
              ),
              { statusCode: context.statusCode },
            ),
        },
      },
      // Every refusal of this route keeps the form's answer shape, so the form can show it.
      errorHandler(error: FastifyError, request, reply) {
        const status = error.statusCode ?? 500;
        if (status >= 400 && status < 500) {
          return reply.code(status).send({ status: 'error', message: refusalMessage(error) });
        }
        request.log.error({ err: error }, 'form request failed');
        return reply.code(500).send({ status: 'error', message: failedMessage });
      },
    },
    async (request, reply) => {
      const { form } = request.params;
      if (!isFormKind(form)) {
        return reply.code(404).send({ status: 'error', message: 'There is no such form.' });
      }
      const result = await service.submit(form, request.body, request.log);
      let answer: FormAnswer;
      switch (result.status) {
        case 'invalid':
          return reply.code(400).send({ status: 'error', message: result.message });
        case 'error':
          return reply.code(result.reason === 'unavailable' ? 503 : 500).send({
            status: 'error',
            message: result.reason === 'unavailable' ? unavailableMessage : failedMessage,
          });
        default:
          answer = result;
          return answer;
      }
    },
  );
};

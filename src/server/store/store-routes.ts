import type { FastifyError, FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import * as z from 'zod/mini';
import { formatMoney } from '../../shared/money';
import { checkFormerPrice, type PriceRules } from '../../shared/store/price-history';
import {
  type StorePrices,
  type StorePublished,
  type StoreState,
  type StoreVersionPage,
} from '../../shared/store/store-api';
import {
  fieldErrors,
  storeContentSchema,
  type StoreContent,
} from '../../shared/store/store-content';
import type { Database } from '../db/schema';
import { audited, recordAudit } from '../admin/audit/audit-log';
import { errorBody, HttpError } from '../http/errors';
import { pageQuery, parsedOr400 } from '../http/input';
import { completeContent } from './complete-content';
import { checkUploadedFiles, contentFiles } from './files/content-files';
import { seedFromConfig, type StoreService } from './store-plugin';
import { contentOr400, STORE_BODY_LIMIT } from './store-preview-route';
import {
  DRAFT_ID,
  type PublishedStore,
  insertVersion,
  listVersions,
  readDraft,
  saveDraft,
  storable,
  versionContent,
} from './store-versions';

const NOT_A_VERSION = 'The version must be a positive whole number.';
const versionParam = z.object({
  version: z.pipe(
    z.string({ error: NOT_A_VERSION }).check(z.regex(/^[1-9]\d{0,8}$/, { error: NOT_A_VERSION })),
    z.transform(Number),
  ),
});

const draftBody = z.object({ content: z.unknown() });

/**
 * The draft's content from a PUT body, or a 400 naming each bad field by its path (as the
 * preview reads it), checked as it will be stored: jsonb takes no NUL nor lone surrogate.
 */
function draftContent(body: unknown) {
  const { content } = parsedOr400(draftBody, body, () => 'The body must be { "content": { … } }.');
  return contentOr400({ content: storable(content) });
}

/** What the price history says of the live and the draft former prices, at `now`. */
function pricesOf(
  store: StoreService,
  rules: PriceRules,
  draft: StoreContent,
  live: PublishedStore,
  now = new Date(),
): StorePrices {
  const check = (product: StoreContent['product']) =>
    checkFormerPrice(store.priceSpans(), product, now, (cents) =>
      formatMoney(cents, product.currency),
    );
  return { rules, live: check(live.content.product), draft: check(draft.product) };
}

async function stateOf(
  db: Kysely<Database>,
  store: StoreService,
  rules: PriceRules,
  draft: StoreContent,
  live: PublishedStore,
): Promise<StoreState> {
  return {
    draft,
    prices: pricesOf(store, rules, draft, live),
    files: await contentFiles(db, [draft, live.content]),
    published: {
      version: live.version,
      publishedAt: live.publishedAt.toISOString(),
      content: live.content,
    },
  };
}

/** The store content's admin routes (shared/store/store-api.ts), inside the /api/admin scope. */
export const storeAdminRoutes: FastifyPluginAsync = async (scope) => {
  const { db } = scope.database;
  const seed = seedFromConfig(scope.config);

  scope.setErrorHandler((error: FastifyError, _request, reply) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply
        .code(413)
        .send(
          errorBody(
            413,
            `The content is too large to save (at most ${STORE_BODY_LIMIT / 1024} KiB).`,
          ),
        );
    }
    throw error;
  });

  scope.get('/store', async (): Promise<StoreState> => {
    const [draft, live] = await Promise.all([readDraft(db), scope.store.refresh()]);
    return stateOf(
      db,
      scope.store,
      scope.config.priceRules,
      completeContent(draft.content, seed),
      live,
    );
  });

  scope.put('/store', { bodyLimit: STORE_BODY_LIMIT }, async (request): Promise<StoreState> => {
    const content = draftContent(request.body);
    await checkUploadedFiles(db, content);
    const adminEmail = request.admin!.email;
    const updatedAt = await db.transaction().execute((trx) =>
      audited(
        trx,
        {
          adminEmail,
          action: 'update',
          tableName: 'store_draft',
          rowIds: [DRAFT_ID],
          keepBefore: true,
        },
        () => saveDraft(trx, content, adminEmail),
      ),
    );
    if (!updatedAt) throw new Error('The store has no draft.');
    return stateOf(db, scope.store, scope.config.priceRules, content, scope.store.published());
  });

  /**
   * Publishes the draft, or with `source` an earlier version's content (which becomes the
   * draft too), as the next version: one transaction with its activity entry and the
   * notification. The content must pass today's schema, whenever it was saved.
   */
  async function publish(
    adminEmail: string,
    source?: { version: number },
  ): Promise<StorePublished> {
    const version = await db.transaction().execute(async (trx) => {
      // The draft's lock: publishes take turns.
      const draft = await readDraft(trx, true);
      let content: unknown = draft.content;
      if (source) {
        content = await versionContent(trx, source.version);
        if (!content) throw new HttpError(404, `There is no version ${source.version}.`);
      }
      const parsed = storeContentSchema.safeParse(completeContent(content, seed));
      if (!parsed.success) {
        const fields = fieldErrors(parsed.error);
        const what = source ? `Version ${source.version}` : 'The draft';
        throw new HttpError(
          400,
          `${what} cannot be published: ${Object.values(fields)[0] ?? 'it is not valid.'}`,
          fields,
        );
      }
      if (source) await saveDraft(trx, parsed.data, adminEmail);
      const published = await insertVersion(trx, parsed.data, adminEmail);
      // A restore publishes too (a new version); 'restore' in the log means deleted rows put back.
      await recordAudit(trx, {
        adminEmail,
        action: 'publish',
        tableName: 'store_versions',
        rowIds: [published.version],
        before: source ? [{ version: source.version }] : null,
        after: [published.row],
      });
      return published.version;
    });
    // This instance serves it at once; the others on their notification.
    await scope.store.refresh();
    return { version };
  }

  scope.post('/store/publish', async (request, reply) => {
    return reply.code(201).send(await publish(request.admin!.email));
  });

  scope.get('/store/versions', async (request): Promise<StoreVersionPage> => {
    const { page } = parsedOr400(pageQuery, request.query);
    return listVersions(db, page);
  });

  scope.post('/store/versions/:version/restore', async (request, reply) => {
    const { version } = parsedOr400(versionParam, request.params);
    return reply.code(201).send(await publish(request.admin!.email, { version }));
  });
};

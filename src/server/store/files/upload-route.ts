import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  STORE_FILES_PATH,
  guideFilePath,
  imageTypes,
  storeFileKinds,
  type StoreFileKind,
  type UploadedFile,
} from '../../../shared/store/files-api';
import { recordAudit } from '../../admin/audit/audit-log';
import { ADMIN_PREFIX } from '../../admin/admin-plugin';
import { HttpError } from '../../http/errors';
import { imageVariant } from './content-files';
import { encodeImage } from './images';
import { cleanFileName, newFileId, storeStreamedFile, tooLarge } from './stored-files';

const ROUTE = STORE_FILES_PATH.slice(ADMIN_PREFIX.length);

const FORM_PROBLEM =
  'Send the upload as a form with the field "kind" (image, product or guide) and then "file".';

/** Reads an image upload whole (it is decoded whole anyway), refusing it past the limit. */
async function readImage(stream: Readable, maxBytes: number): Promise<Buffer> {
  const pieces: Buffer[] = [];
  let size = 0;
  for await (const piece of stream as AsyncIterable<Buffer>) {
    size += piece.length;
    if (size > maxBytes) throw tooLarge(maxBytes, 'The image');
    pieces.push(piece);
  }
  return Buffer.concat(pieces, size);
}

/** The form's `kind` field, then its file stream: the only order accepted. */
async function readForm(
  request: FastifyRequest,
  fileSizeLimit: number,
): Promise<{ kind: StoreFileKind; name: string; stream: Readable }> {
  const parts = request.parts({
    limits: { fields: 1, files: 1, parts: 2, fieldSize: 64, fileSize: fileSizeLimit + 1 },
  });
  const first = await parts.next();
  if (first.done || first.value.type !== 'field' || first.value.fieldname !== 'kind') {
    throw new HttpError(400, FORM_PROBLEM);
  }
  const kind = storeFileKinds.find((candidate) => candidate === first.value.value);
  if (!kind) throw new HttpError(400, 'The kind must be image, product or guide.');
  const second = await parts.next();
  if (second.done || second.value.type !== 'file' || second.value.fieldname !== 'file') {
    throw new HttpError(400, FORM_PROBLEM);
  }
  return { kind, name: cleanFileName(second.value.filename), stream: second.value.file };
}

/**
 * POST /api/admin/store/files (admin guard; the guard refuses other origins): one upload,
 * streamed in. Images are checked and re-encoded before anything is stored; product and guide
 * files are written in chunks as they arrive, in one transaction with their activity entry,
 * so a refused or interrupted upload stores nothing and replaces nothing.
 */
export const storeFileRoutes: FastifyPluginAsync = async (scope) => {
  const { db } = scope.database;
  const { imageMaxBytes, fileMaxBytes } = scope.config.uploads;
  // Scoped to this plugin: multipart bodies are taken here only.
  await scope.register(multipart, { throwFileSizeLimit: true });

  scope.post(ROUTE, async (request, reply) => {
    if (!request.isMultipart()) throw new HttpError(400, FORM_PROBLEM);
    const adminEmail = request.admin!.email;
    const form = await readForm(request, Math.max(imageMaxBytes, fileMaxBytes));
    let answer: UploadedFile;
    try {
      answer =
        form.kind === 'image'
          ? await storeImage(form.name, await readImage(form.stream, imageMaxBytes), adminEmail)
          : await storeFile(form.kind, form.name, form.stream, adminEmail);
    } catch (error) {
      // The rest of a refused upload is not read: close the connection after the answer.
      if (!form.stream.readableEnded) reply.header('connection', 'close');
      throw error;
    }
    request.log.info(
      { file: answer.id, kind: answer.kind, size: answer.size },
      'Store file uploaded',
    );
    return reply.code(201).send(answer);
  });

  async function storeImage(name: string, bytes: Buffer, adminEmail: string) {
    const image = await encodeImage(bytes);
    const id = newFileId();
    const file = {
      id,
      kind: 'image' as const,
      name,
      content_type: imageTypes.jpeg,
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      width: image.width,
      height: image.height,
    };
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('store_files')
        .values({ ...file, created_by: adminEmail })
        .execute();
      await trx
        .insertInto('store_image_variants')
        .values(image.variants.map((variant) => ({ file_id: id, ...variant })))
        .execute();
      await audit(trx, adminEmail, file);
    });
    const variants = image.variants.map(imageVariant).sort((a, b) => a.width - b.width);
    const fallback = variants.filter((variant) => variant.format === 'jpeg').at(-1)!;
    return {
      id,
      url: fallback.url,
      kind: file.kind,
      name,
      size: file.size,
      sha256: file.sha256,
      width: file.width,
      height: file.height,
      variants,
    } satisfies UploadedFile;
  }

  async function storeFile(
    kind: Exclude<StoreFileKind, 'image'>,
    name: string,
    stream: Readable,
    adminEmail: string,
  ): Promise<UploadedFile> {
    const file = await db.transaction().execute(async (trx) => {
      const stored = await storeStreamedFile(trx, {
        kind,
        name,
        bytes: stream as AsyncIterable<Buffer>,
        maxBytes: fileMaxBytes,
        createdBy: adminEmail,
      });
      await audit(trx, adminEmail, stored);
      return stored;
    });
    return {
      id: file.id,
      url: kind === 'guide' ? guideFilePath(file.id) : null,
      kind,
      name,
      size: file.size,
      sha256: file.sha256,
    };
  }

  function audit(
    trx: typeof db,
    adminEmail: string,
    file: { id: string; kind: StoreFileKind; name: string; size: number; sha256: string },
  ) {
    // The ids are text, not the log's numeric row ids: the stored file is told in `after`.
    return recordAudit(trx, {
      adminEmail,
      action: 'upload',
      tableName: 'store_files',
      rowIds: [],
      after: [
        { id: file.id, kind: file.kind, name: file.name, size: file.size, sha256: file.sha256 },
      ],
    });
  }
};

import { randomBytes } from 'node:crypto';

export type FormPart =
  | { name: string; value: string }
  | { name: string; filename: string; contentType?: string; data: Buffer };

/** A multipart/form-data body and its content-type header, parts in the order given. */
export function multipartBody(parts: FormPart[]): { payload: Buffer; contentType: string } {
  const boundary = `----soul-reset-${randomBytes(8).toString('hex')}`;
  const pieces: Buffer[] = [];
  for (const part of parts) {
    pieces.push(Buffer.from(`--${boundary}\r\n`));
    if ('value' in part) {
      pieces.push(
        Buffer.from(`content-disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`),
      );
    } else {
      pieces.push(
        Buffer.from(
          `content-disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n` +
            `content-type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        part.data,
        Buffer.from('\r\n'),
      );
    }
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(pieces),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** The form the upload route takes: `kind`, then `file`. */
export function uploadForm(
  kind: string,
  file: { filename: string; contentType?: string; data: Buffer },
): { payload: Buffer; contentType: string } {
  return multipartBody([
    { name: 'kind', value: kind },
    { name: 'file', ...file },
  ]);
}

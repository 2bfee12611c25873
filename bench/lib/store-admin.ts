import { uploadForm } from '../../tests/support/multipart';
import { STORE_FILES_PATH, type UploadedFile } from '../../src/shared/store/files-api';
import { STORE_PATH, STORE_PUBLISH_PATH, type StoreState } from '../../src/shared/store/store-api';
import type { StoreContent } from '../../src/shared/store/store-content';

/** A running server and the owner's session cookie on it. */
export type StoreAdmin = { url: string; cookie: string };

/** A request as the admin's own pages send it (same Origin, the session); throws unless 2xx. */
async function adminFetch(admin: StoreAdmin, route: string, init: RequestInit = {}) {
  const response = await fetch(`${admin.url}${route}`, {
    ...init,
    headers: { origin: admin.url, cookie: admin.cookie, ...init.headers },
  });
  if (!response.ok) {
    throw new Error(
      `${init.method ?? 'GET'} ${route} answered ${response.status}: ${await response.text()}`,
    );
  }
  return response;
}

/** Saves `edit` of the current draft as the draft. */
export async function editDraft(
  admin: StoreAdmin,
  edit: (content: StoreContent) => StoreContent,
): Promise<void> {
  const state = (await (await adminFetch(admin, STORE_PATH)).json()) as StoreState;
  await adminFetch(admin, STORE_PATH, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ content: edit(state.draft) }),
  });
}

/** Publishes the draft; this instance serves it when the answer comes. */
export async function publishDraft(admin: StoreAdmin): Promise<void> {
  await adminFetch(admin, STORE_PUBLISH_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
}

/**
 * Publishes the draft and reads GET / until the page holds `marker` (a text only the new
 * draft has): milliseconds from the POST until a visitor gets the new page.
 */
export async function publishUntilServed(
  admin: StoreAdmin,
  marker: string,
  limitMs = 10_000,
): Promise<number> {
  const started = performance.now();
  await publishDraft(admin);
  for (;;) {
    const page = await (await fetch(`${admin.url}/`)).text();
    const elapsed = performance.now() - started;
    if (page.includes(marker)) return elapsed;
    if (elapsed > limitMs)
      throw new Error(`GET / did not show "${marker}" ${limitMs} ms after publishing`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Uploads a file as the Store page does (multipart: `kind`, then `file`). */
export async function uploadStoreFile(
  admin: StoreAdmin,
  kind: 'image' | 'product' | 'guide',
  file: { filename: string; contentType?: string; data: Buffer },
): Promise<UploadedFile> {
  const form = uploadForm(kind, file);
  const response = await adminFetch(admin, STORE_FILES_PATH, {
    method: 'POST',
    headers: { 'content-type': form.contentType },
    body: new Uint8Array(form.payload),
  });
  return (await response.json()) as UploadedFile;
}

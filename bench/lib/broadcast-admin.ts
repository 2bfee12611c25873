import {
  ADMIN_BROADCASTS_PATH,
  adminBroadcastPath,
  type AdminBroadcast,
  type BroadcastDraft,
  type EmailPreview,
  ADMIN_SEQUENCE_PATH,
  type AdminSequence,
  type SequenceDraft,
} from '../../src/shared/broadcasts/broadcasts-api';
import { editDraft, publishDraft, type StoreAdmin } from './store-admin';

/** A request as the admin's Broadcasts page sends it; throws unless 2xx. */
async function adminJson<T>(
  admin: StoreAdmin,
  route: string,
  body?: unknown,
  method = body === undefined ? 'GET' : 'POST',
): Promise<T> {
  const response = await fetch(`${admin.url}${route}`, {
    method,
    headers: {
      cookie: admin.cookie,
      ...(body !== undefined && { origin: admin.url, 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) {
    throw new Error(`${method} ${route} answered ${response.status}: ${text}`);
  }
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The sender's name and postal address every list email needs, saved and published. */
export async function setSender(admin: StoreAdmin): Promise<void> {
  await editDraft(admin, (content) => ({
    ...content,
    sender: { name: 'Bench Owner', postalAddress: '1 Bench Street, 10115 Berlin, Germany' },
  }));
  await publishDraft(admin);
}

/** A broadcast as an owner writes one: a heading, two paragraphs and two links. */
export function benchDraft(subject: string): BroadcastDraft {
  return {
    subject,
    preheader: 'What changed this week',
    html:
      '<h2>A new chapter</h2><p>Hello, this week the guide has a new chapter on ' +
      '<a href="https://example.com/guide">sleep and recovery</a>, and the workbook ' +
      'has new exercises.</p><p>Read it on <a href="https://example.com/">the site</a>.</p>',
  };
}

export const createBroadcast = async (admin: StoreAdmin, draft: BroadcastDraft) =>
  (await adminJson<{ id: number }>(admin, ADMIN_BROADCASTS_PATH, draft)).id;

export const broadcastAction = (
  admin: StoreAdmin,
  id: number,
  action: 'send' | 'pause' | 'resume' | 'cancel',
) => adminJson<AdminBroadcast>(admin, `${adminBroadcastPath(id)}/${action}`, {});

export const getBroadcast = (admin: StoreAdmin, id: number) =>
  adminJson<AdminBroadcast>(admin, adminBroadcastPath(id));

export const previewBroadcast = (admin: StoreAdmin, draft: BroadcastDraft) =>
  adminJson<EmailPreview>(admin, `${ADMIN_BROADCASTS_PATH}/preview`, draft);

export const saveSequence = (admin: StoreAdmin, draft: SequenceDraft) =>
  adminJson<AdminSequence>(admin, ADMIN_SEQUENCE_PATH, draft, 'PUT');

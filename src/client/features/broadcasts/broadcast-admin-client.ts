import {
  ADMIN_BROADCASTS_PATH,
  ADMIN_SEQUENCE_PATH,
  adminBroadcastPath,
  SENDER_MISSING_MESSAGE,
  type AdminBroadcast,
  type AdminSequence,
  type BroadcastDraft,
  type EmailPreview,
  type SequenceDraft,
  type SequenceStepDraft,
} from '../../../shared/broadcasts/broadcasts-api';
import { api, RequestError } from '../../lib/api-client';

/** The controls of a broadcast once it has been sent or scheduled. */
export type BroadcastAction = 'pause' | 'resume' | 'cancel';

/** The admin's broadcast and sequence calls (shared/broadcasts); a 401 sends the owner to sign in. */
export const broadcastAdmin = {
  async list(): Promise<AdminBroadcast[]> {
    return (await api.get<{ rows: AdminBroadcast[] }>(ADMIN_BROADCASTS_PATH)).rows;
  },
  get: (id: number) => api.get<AdminBroadcast>(adminBroadcastPath(id)),
  async create(draft: BroadcastDraft): Promise<number> {
    return (await api.post<{ id: number }>(ADMIN_BROADCASTS_PATH, draft)).id;
  },
  update: (id: number, draft: BroadcastDraft) =>
    api.put<AdminBroadcast>(adminBroadcastPath(id), draft),
  remove: (id: number) => api.delete<null>(adminBroadcastPath(id)),
  /** Now, or at `at` (an ISO time). */
  send: (id: number, at?: string) =>
    api.post<AdminBroadcast>(`${adminBroadcastPath(id)}/send`, at ? { at } : {}),
  act: (id: number, action: BroadcastAction) =>
    api.post<AdminBroadcast>(`${adminBroadcastPath(id)}/${action}`),
  test: (draft: BroadcastDraft) =>
    api.post<{ sentTo: string }>(`${ADMIN_BROADCASTS_PATH}/test`, draft),
  preview: (draft: BroadcastDraft) =>
    api.post<EmailPreview>(`${ADMIN_BROADCASTS_PATH}/preview`, draft),

  sequence: () => api.get<AdminSequence>(ADMIN_SEQUENCE_PATH),
  saveSequence: (draft: SequenceDraft) => api.put<AdminSequence>(ADMIN_SEQUENCE_PATH, draft),
  testStep: (step: SequenceStepDraft) =>
    api.post<{ sentTo: string }>(`${ADMIN_SEQUENCE_PATH}/test`, step),
  previewStep: (step: SequenceStepDraft) =>
    api.post<EmailPreview>(`${ADMIN_SEQUENCE_PATH}/preview`, step),
};

export type BroadcastAdmin = typeof broadcastAdmin;

/** The refusal to send before the store's sender name and postal address are set. */
export function isSenderMissing(error: unknown): boolean {
  return (
    error instanceof RequestError &&
    error.status === 409 &&
    error.message === SENDER_MISSING_MESSAGE
  );
}

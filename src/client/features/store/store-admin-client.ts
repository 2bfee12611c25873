import {
  STORE_PATH,
  STORE_PREVIEW_PATH,
  STORE_PUBLISH_PATH,
  STORE_VERSIONS_PATH,
  storeRestorePath,
  type StoreState,
  type StoreVersion,
} from '../../../shared/store/store-api';
import type { StoreContent } from '../../../shared/store/store-content';
import { STORE_SCHEDULE_PATH, type StoreSchedule } from '../../../shared/store/schedule-api';
import { api } from '../../lib/api-client';

/** The admin's calls to the store content API (shared/store/store-api.ts). */
export const storeAdminClient = {
  load: () => api.get<StoreState>(STORE_PATH),
  saveDraft: (content: StoreContent) => api.put<StoreState>(STORE_PATH, { content }),
  publish: () => api.post<{ version: number }>(STORE_PUBLISH_PATH),
  versions: () => api.get<{ rows: StoreVersion[] }>(STORE_VERSIONS_PATH),
  restore: (version: number) => api.post<{ version: number }>(storeRestorePath(version)),
  schedule: () => api.get<{ schedule: StoreSchedule | null }>(STORE_SCHEDULE_PATH),
  /** The saved draft, published at `publishAt` (an ISO time). */
  setSchedule: (publishAt: string) => api.put<StoreSchedule>(STORE_SCHEDULE_PATH, { publishAt }),
  cancelSchedule: () => api.delete<void>(STORE_SCHEDULE_PATH),
  /** The home page as `content` would show it: HTML for a sandboxed frame. */
  preview: (content: StoreContent) => api.postForText(STORE_PREVIEW_PATH, { content }),
};

export type StoreAdminClient = typeof storeAdminClient;

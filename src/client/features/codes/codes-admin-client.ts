import {
  CODES_PATH,
  codePath,
  type AdminCode,
  type CodeBody,
  type CodeList,
} from '../../../shared/codes/codes-api';
import { api } from '../../lib/api-client';

/** The admin's calls to the discount codes API (shared/codes/codes-api.ts). */
export const codesAdminClient = {
  list: () => api.get<CodeList>(CODES_PATH),
  create: (body: CodeBody) => api.post<AdminCode>(CODES_PATH, body),
  update: (body: CodeBody) => api.put<AdminCode>(codePath(body.code), body),
};

export type CodesAdminClient = typeof codesAdminClient;

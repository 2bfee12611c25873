export const DEFAULT_UPSTREAMS_FILE: string;

export function renderNginxConfig(options: { serverName: string; upstreamsFile?: string }): string;

export function renderUpstreams(options: {
  instances: string[];
  maxFails?: number;
  failTimeout?: string;
}): string;

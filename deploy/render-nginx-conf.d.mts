export function renderNginxConfig(options: {
  serverName: string;
  instances: string[];
  maxFails?: number;
  failTimeout?: string;
}): string;

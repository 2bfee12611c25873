import { createServer, type AddressInfo } from 'node:net';

/** A port free right now: PUBLIC_URL must name the real port (the Origin checks compare it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';
import { createHash } from 'node:crypto';
import { appStartScript, bodyBootScript, headBootScript } from '../../shared/prerendered-routes';

/** CSP source expressions that allow exactly the page's three inline boot scripts. */
export function bootScriptHashes(): string[] {
  return [headBootScript, bodyBootScript, appStartScript].map(
    (script) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`,
  );
}

// Everything the site uses is served by the app itself (DESIGN.md), so 'self' is enough, plus
// the hashes of the inline scripts that pick a prerendered route before the first paint and
// start the app after it.
export const securityHeaders = fp(async (app) => {
  const https = app.config.publicUrl.startsWith('https:');
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...bootScriptHashes()],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header(
      'permissions-policy',
      'camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()',
    );
  });
});

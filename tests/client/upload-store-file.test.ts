/**
 * uploadStoreFile against the real app over HTTP, with jsdom's XMLHttpRequest, FormData and File
 * standing in for the browser's (a page of its own: the jsdom test environment breaks the
 * server's modules, whose URL class it replaces). The form goes over a socket to a listening
 * server with a signed-in admin. One gap is bridged: a
 * browser sends Origin with every POST, jsdom only with cross-origin ones, so a small proxy
 * adds the page's own origin to a request without one (the admin guard requires it).
 */
import type { FastifyInstance } from 'fastify';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { freePort } from '../support/free-port';
import { signIn } from '../support/sign-in';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { buildTestApp } from '../support/test-app';
import { testConfig } from '../support/test-config';
import { describeEachDatabase } from '../support/test-database';
import {
  UploadCancelled,
  uploadStoreFile,
} from '../../src/client/features/store/upload-store-file';
import { RequestError, UNREACHABLE_MESSAGE, onSessionEnded } from '../../src/client/lib/api-client';
import { guideFilePath } from '../../src/shared/store/files-api';

const ADMIN = 'owner@example.com';

/** The part of jsdom's JSDOM this test uses (jsdom ships no types of its own). */
type Page = {
  window: {
    XMLHttpRequest: typeof XMLHttpRequest;
    FormData: typeof FormData;
    File: typeof File;
    close(): void;
  };
  cookieJar: { setCookieSync(cookie: string, url: string): unknown; removeAllCookiesSync(): void };
  reconfigure(options: { url: string }): void;
};
const { JSDOM } = (await import('jsdom' as string)) as {
  JSDOM: new (html: string, options: { url: string }) => Page;
};

/** nginx's own page for a body over client_max_body_size. */
const NGINX_413 = '<html><head><title>413 Request Entity Too Large</title></head></html>';

/** What the proxy answers itself instead of forwarding, while set. */
type ProxyReply = { current: { status: number; page: string } | null };

/**
 * Forwards every request to `target`, adding `origin` when the client sent none; answers with
 * a page of its own instead while `reply.current` is set.
 */
function originProxy(
  port: number,
  target: number,
  origin: string,
  reply: ProxyReply,
): Promise<http.Server> {
  const proxy = http.createServer((request, response) => {
    if (reply.current) {
      response.writeHead(reply.current.status, {
        'content-type': 'text/html',
        connection: 'close',
      });
      response.end(reply.current.page);
      return;
    }
    const headers = { ...request.headers, origin: request.headers.origin ?? origin };
    const forwarded = http.request(
      { host: '127.0.0.1', port: target, method: request.method, path: request.url, headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => response.destroy());
    request.pipe(forwarded);
  });
  return new Promise((resolve) => proxy.listen(port, '127.0.0.1', () => resolve(proxy)));
}

describeEachDatabase('uploadStoreFile against the server', (use) => {
  let sink: SmtpSink;
  let app: FastifyInstance;
  let proxy: http.Server;
  let publicUrl: string;
  let cookie: string;
  let jsdom: Page;
  const proxyReply: ProxyReply = { current: null };
  /** A file as the page's file input gives it. */
  const file = (parts: BlobPart[], name: string, type?: string): File =>
    new jsdom.window.File(parts, name, { type });

  beforeAll(async () => {
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    sink = await startSmtpSink();
    app = await buildTestApp(use(), {
      config: await testConfig({
        SMTP_URL: sink.url,
        ADMIN_EMAILS: ADMIN,
        PUBLIC_URL: publicUrl,
        UPLOAD_FILE_MAX_MB: '1',
      }),
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    proxy = await originProxy(
      port,
      (app.server.address() as AddressInfo).port,
      publicUrl,
      proxyReply,
    );
    cookie = await signIn(app, sink, ADMIN);
    jsdom = new JSDOM('', { url: `${publicUrl}/admin/store` });
    vi.stubGlobal('XMLHttpRequest', jsdom.window.XMLHttpRequest);
    vi.stubGlobal('FormData', jsdom.window.FormData);
  }, 60_000);
  afterAll(async () => {
    vi.unstubAllGlobals();
    jsdom?.window.close();
    await new Promise((resolve) => proxy?.close(resolve));
    await app?.close();
    await sink?.close();
  });

  function signedIn(yes: boolean) {
    jsdom.cookieJar.removeAllCookiesSync();
    if (yes) jsdom.cookieJar.setCookieSync(`${cookie}; Path=/; HttpOnly`, publicUrl);
  }

  it('sends the kind and the file, reports progress up to 1 and resolves with the answer', async () => {
    signedIn(true);
    const progress: number[] = [];
    const bytes = new Uint8Array(200_000).map((_, index) => index % 251);
    const guide = file([bytes], 'Soul Reset Guide.pdf', 'application/pdf');
    const uploaded = await uploadStoreFile('guide', guide, (fraction) => progress.push(fraction))
      .done;
    expect(uploaded).toMatchObject({
      kind: 'guide',
      name: 'Soul Reset Guide.pdf',
      size: 200_000,
      url: guideFilePath(uploaded.id),
    });
    expect(progress.at(-1)).toBe(1);
    expect(progress.every((fraction) => fraction >= 0 && fraction <= 1)).toBe(true);
    // What the server stored is what was sent.
    const download = await app.inject({ url: guideFilePath(uploaded.id) });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(Buffer.from(bytes))).toBe(true);
  });

  it('rejects with the server’s status and message', async () => {
    signedIn(true);
    const big = file([new Uint8Array(1024 * 1024 + 1)], 'big.zip');
    const tooLarge = await uploadStoreFile('product', big, () => {}).done.catch((e) => e);
    expect(tooLarge).toBeInstanceOf(RequestError);
    expect(tooLarge).toMatchObject({
      status: 413,
      message: 'The file is too large: the limit is 1 MB.',
    });

    const notAnImage = file(
      ['<svg xmlns="http://www.w3.org/2000/svg"/>'],
      'logo.svg',
      'image/svg+xml',
    );
    const refused = await uploadStoreFile('image', notAnImage, () => {}).done.catch((e) => e);
    expect(refused).toBeInstanceOf(RequestError);
    expect(refused.status).toBe(400);
    expect(refused.message).toMatch(/JPEG, PNG, WebP, AVIF or GIF/);
  });

  it('says the file is too large when a proxy in front refuses it with a page of its own', async () => {
    signedIn(true);
    proxyReply.current = { status: 413, page: NGINX_413 };
    try {
      const error = await uploadStoreFile('guide', file(['x'], 'a.pdf'), () => {}).done.catch(
        (e) => e,
      );
      expect(error).toBeInstanceOf(RequestError);
      expect(error).toMatchObject({ status: 413, message: 'This file is too large to upload.' });
    } finally {
      proxyReply.current = null;
    }
  });

  it('rejects an answer that is not the app’s, even a 2xx one, with the general message', async () => {
    signedIn(true);
    try {
      for (const status of [502, 201]) {
        proxyReply.current = { status, page: '<html>Not the app</html>' };
        const error = await uploadStoreFile('guide', file(['x'], 'a.pdf'), () => {}).done.catch(
          (e) => e,
        );
        expect(error).toBeInstanceOf(RequestError);
        expect(error).toMatchObject({ status, message: UNREACHABLE_MESSAGE });
      }
    } finally {
      proxyReply.current = null;
    }
  });

  it('tells the session listeners of a 401', async () => {
    signedIn(false);
    let ended = 0;
    const stop = onSessionEnded(() => ended++);
    try {
      const guide = file(['x'], 'guide.pdf');
      const error = await uploadStoreFile('guide', guide, () => {}).done.catch((e) => e);
      expect(error).toBeInstanceOf(RequestError);
      expect(error.status).toBe(401);
      expect(ended).toBe(1);
    } finally {
      stop();
    }
  });

  it('rejects with status 0 and the connection message when the server cannot be reached', async () => {
    signedIn(true);
    jsdom.reconfigure({ url: `http://127.0.0.1:${await freePort()}/admin/store` });
    try {
      const error = await uploadStoreFile('guide', file(['x'], 'a.pdf'), () => {}).done.catch(
        (e) => e,
      );
      expect(error).toBeInstanceOf(RequestError);
      expect(error).toMatchObject({ status: 0, message: UNREACHABLE_MESSAGE });
    } finally {
      jsdom.reconfigure({ url: `${publicUrl}/admin/store` });
    }
  });

  it('abort() stops the upload and rejects with UploadCancelled', async () => {
    signedIn(true);
    const upload = uploadStoreFile('guide', file([new Uint8Array(500_000)], 'a.pdf'), () => {});
    upload.abort();
    await expect(upload.done).rejects.toBeInstanceOf(UploadCancelled);
  });
});

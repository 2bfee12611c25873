import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fakeClientBuild } from '../../../../tests/support/fake-client-build';
import { uploadForm } from '../../../../tests/support/multipart';
import { signIn } from '../../../../tests/support/sign-in';
import { startSmtpSink, type SmtpSink } from '../../../../tests/support/smtp-sink';
import { buildTestApp } from '../../../../tests/support/test-app';
import { testConfig } from '../../../../tests/support/test-config';
import { describeEachDatabase } from '../../../../tests/support/test-database';
import { PUBLIC_CONFIG_ELEMENT_ID, type PublicConfig } from '../../../shared/public-config';
import { STORE_FILES_PATH, type UploadedFile } from '../../../shared/store/files-api';
import { STORE_PATH, STORE_PUBLISH_PATH, type StoreState } from '../../../shared/store/store-api';
import type { StoreContent } from '../../../shared/store/store-content';

const ADMIN = 'owner@example.com';

describeEachDatabase('the files the store content names', (use) => {
  let sink: SmtpSink;
  let app: FastifyInstance;
  let headers: Record<string, string>;

  beforeAll(async () => {
    sink = await startSmtpSink();
    app = await buildTestApp(use(), {
      config: await testConfig({ SMTP_URL: sink.url, ADMIN_EMAILS: ADMIN }),
      clientDir: await fakeClientBuild(),
    });
    headers = { cookie: await signIn(app, sink, ADMIN), origin: app.config.publicUrl };
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await sink?.close();
  });

  async function upload(kind: string, filename: string, data: Buffer): Promise<UploadedFile> {
    const form = uploadForm(kind, { filename, data });
    const answer = await app.inject({
      method: 'POST',
      url: STORE_FILES_PATH,
      payload: form.payload,
      headers: { ...headers, 'content-type': form.contentType },
    });
    expect(answer.statusCode).toBe(201);
    return answer.json();
  }

  const saveDraft = (content: StoreContent) =>
    app.inject({ method: 'PUT', url: STORE_PATH, headers, payload: { content } });

  async function draft(): Promise<StoreState> {
    return (await app.inject({ url: STORE_PATH, headers })).json();
  }

  function embeddedConfig(html: string): PublicConfig {
    const match = new RegExp(
      `<script type="application/json" id="${PUBLIC_CONFIG_ELEMENT_ID}">(.*?)</script>`,
    ).exec(html);
    return JSON.parse(match![1]!.replaceAll('\\u003c', '<')) as PublicConfig;
  }

  it('puts an uploaded image on the page with its variants, and the page title and sharing image in its head', async () => {
    const photo = await sharp({
      create: { width: 1200, height: 630, channels: 3, background: '#7a9a82' },
    })
      .jpeg()
      .toBuffer();
    const image = await upload('image', 'desk.jpg', photo);
    const { draft: content } = await draft();
    const changed: StoreContent = {
      ...content,
      hero: { ...content.hero, image: { file: image.id, alt: 'A calm desk' } },
      page: {
        title: 'Calm & <quiet> days',
        description: 'A "gentle" reset',
        socialImage: { file: image.id, alt: 'A calm desk' },
      },
    };
    expect((await saveDraft(changed)).statusCode).toBe(200);
    const state = await draft();
    expect(state.files[image.id]).toMatchObject({ kind: 'image', name: 'desk.jpg' });
    expect(state.files[image.id]!.image!.variants).toEqual(image.variants);

    expect(
      (await app.inject({ method: 'POST', url: STORE_PUBLISH_PATH, headers })).statusCode,
    ).toBe(201);
    const html = (await app.inject('/')).body;
    expect(html).toContain('<title>Calm &amp; &lt;quiet&gt; days</title>');
    expect(html).not.toContain('<title>Home</title>');
    expect(html).toContain('<meta name="description" content="A &quot;gentle&quot; reset" />');
    const widest = image.variants!.filter((variant) => variant.format === 'jpeg').at(-1)!;
    expect(html).toContain(
      `<meta property="og:image" content="${app.config.publicUrl}${widest.url}" />`,
    );
    expect(html).toContain('<meta property="og:image:alt" content="A calm desk" />');
    // The browser renders the image from the same variants the server embedded.
    expect(embeddedConfig(html).media[image.id]).toEqual({
      width: 1200,
      height: 630,
      variants: image.variants,
    });
  });

  it('refuses a draft naming a file that is not an upload of the kind its field takes', async () => {
    const image = await upload(
      'image',
      'portrait.png',
      await sharp({
        create: { width: 64, height: 64, channels: 3, background: '#c9a27e' },
      })
        .png()
        .toBuffer(),
    );
    const { draft: content } = await draft();
    const answer = await saveDraft({
      ...content,
      product: { ...content.product, file: image.id },
      parts: content.parts.map((part, index) =>
        index === 1 ? { ...part, image: { file: 'not-uploaded', alt: '' } } : part,
      ),
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().fields).toEqual({
      'product.file': 'This file is not uploaded (any more): upload it again.',
      'parts.1.image.file': 'This file is not uploaded (any more): upload it again.',
    });
    expect((await draft()).draft).toEqual(content);
  });

  it('gives the free guide the owner uploaded once it is published', async () => {
    const bytes = Buffer.from('%PDF-1.4\nThe calm guide\n%%EOF\n');
    const guide = await upload('guide', 'calm-guide.pdf', bytes);
    const request = () =>
      app.inject({
        method: 'POST',
        url: '/api/forms/free-guide',
        headers: { origin: app.config.publicUrl },
        payload: { name: 'Ada', email: `ada${Date.now()}@example.com` },
      });
    expect((await request()).json().guideUrl).toBe(app.config.guideUrl);

    const { draft: content } = await draft();
    expect((await saveDraft({ ...content, guide: { file: guide.id } })).statusCode).toBe(200);
    expect(
      (await app.inject({ method: 'POST', url: STORE_PUBLISH_PATH, headers })).statusCode,
    ).toBe(201);
    const answer = (await request()).json() as { status: string; guideUrl: string };
    expect(answer).toMatchObject({ status: 'success', guideUrl: `/files/${guide.id}` });
    const download = await app.inject(answer.guideUrl);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(bytes)).toBe(true);
  });
});

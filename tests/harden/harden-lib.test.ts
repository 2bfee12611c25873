import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import nodemailer from 'nodemailer';
import { afterEach, describe, expect, it } from 'vitest';
import { findHaproxy, HAPROXY_CONFIG, haproxyConfig, startHaproxy } from '../../harden/lib/haproxy';
import { mailKey } from '../../harden/lib/mail-key';
import { startMailSinkProcess, type MailSinkProcess } from '../../harden/lib/mail-sink-process';
import { findNginx, renderNginxConfig, startNginx } from '../../harden/lib/nginx';
import { freePort } from '../support/free-port';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the harness mail server (a process of its own)', () => {
  let sink: MailSinkProcess | undefined;
  afterEach(async () => {
    await sink?.close();
    sink = undefined;
  });

  const send = (url: string, to: string, text: string, timeoutMs = 5_000) => {
    const transporter = nodemailer.createTransport({
      url,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
    return transporter
      .sendMail({ from: 'site@example.com', to, subject: 'Hello =?', text })
      .finally(() => transporter.close());
  };

  it('keys each message as the queue does, counts copies, answers late, then not at all', async () => {
    sink = await startMailSinkProcess(root);
    const text = `Line one  \nA long line ${'é'.repeat(120)}\n`;
    await send(sink.url, 'Visitor <visitor@example.com>', text);
    await send(sink.url, 'visitor@example.com', text);
    const key = mailKey('Visitor <Visitor@Example.com>', 'Hello =?', text.replace(/\n/g, '\r\n'));
    expect((await sink.received()).get(key)).toHaveLength(2);

    await sink.setMode('slow', 700);
    const started = performance.now();
    await send(sink.url, 'slow@example.com', 'slow');
    expect(performance.now() - started).toBeGreaterThanOrEqual(650);

    // The client gives up before the late answer: the copy still counts, marked late.
    await sink.setMode('slow', 1_200);
    await expect(send(sink.url, 'gave-up@example.com', 'gave up', 400)).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    const gaveUp = mailKey('gave-up@example.com', 'Hello =?', 'gave up');
    expect((await sink.received()).get(gaveUp)).toHaveLength(1);
    expect((await sink.late()).get(gaveUp)).toBe(1);
    expect((await sink.late()).has(key)).toBe(false);

    await sink.setMode('stall');
    await expect(send(sink.url, 'stalled@example.com', 'stalled', 800)).rejects.toThrow();
    expect((await sink.received()).has(mailKey('stalled@example.com', 'Hello =?', 'stalled'))).toBe(
      false,
    );

    await sink.setMode('normal');
    await send(sink.url, 'back@example.com', 'back');
    expect((await sink.received()).has(mailKey('back@example.com', 'Hello =?', 'back'))).toBe(true);
  }, 30_000);
});

describe('the balancer config', () => {
  it('fills every placeholder and refuses one it does not know', () => {
    const text = renderNginxConfig(
      'listen {{LISTEN}};\nupstream app {\n  {{ UPSTREAM_SERVERS }}\n}\npid {{PREFIX}}/pid;\n{{UPSTREAM_SERVERS:fail_timeout=1s}}',
      { listen: '127.0.0.1:8080', upstreams: ['127.0.0.1:1', '127.0.0.1:2'], prefix: '/tmp/x' },
    );
    expect(text).toBe(
      'listen 127.0.0.1:8080;\nupstream app {\n  server 127.0.0.1:1;\n    server 127.0.0.1:2;\n}\npid /tmp/x/pid;\n' +
        'server 127.0.0.1:1 fail_timeout=1s;\n    server 127.0.0.1:2 fail_timeout=1s;',
    );
    expect(() =>
      renderNginxConfig('{{NOPE}}', { listen: 'x', upstreams: [], prefix: 'y' }),
    ).toThrow(/NOPE/);
  });

  it.runIf(process.env.CI === 'true' || findNginx() !== undefined)(
    'runs nginx from it, spreading requests over every upstream',
    async () => {
      const binary = findNginx();
      expect(binary, 'nginx must be installed in CI').toBeDefined();
      const servers = await Promise.all(
        ['a', 'b'].map(
          (name) =>
            new Promise<http.Server>((resolve) => {
              const server = http.createServer((_request, response) => response.end(name));
              server.listen(0, '127.0.0.1', () => resolve(server));
            }),
        ),
      );
      const nginx = await startNginx(
        binary!,
        root,
        await freePort(),
        servers.map((server) => `127.0.0.1:${(server.address() as AddressInfo).port}`),
      );
      try {
        const answers = new Set<string>();
        for (let i = 0; i < 6; i += 1) answers.add(await (await fetch(nginx.url)).text());
        expect([...answers].sort()).toEqual(['a', 'b']);
      } finally {
        await nginx.stop();
        for (const server of servers) await new Promise((resolve) => server.close(resolve));
      }
    },
    30_000,
  );
});

describe("HAProxy with deploy/'s configuration", () => {
  it('keeps its checks and moves only the bind, the servers and the log', async () => {
    const source = await readFile(path.join(root, HAPROXY_CONFIG), 'utf8');
    const text = haproxyConfig(source, {
      listen: '127.0.0.1:8080',
      upstreams: ['127.0.0.1:1', '127.0.0.1:2'],
      socket: '/tmp/x/stats.sock',
    });
    expect(text).toMatch(/^ {4}bind 127\.0\.0\.1:8080$/m);
    expect(text.match(/^\s*server .*$/gm)).toEqual([
      '    server s0 127.0.0.1:1',
      '    server s1 127.0.0.1:2',
    ]);
    expect(text).toMatch(/^ {4}stats socket \/tmp\/x\/stats\.sock /m);
    expect(text).not.toMatch(/\/dev\/log/);
    expect(text).toMatch(/^\s*default-server check inter 1s fall 2 rise 2$/m);
    expect(text).toMatch(/^\s*http-check send meth GET uri \/readyz$/m);
  });

  it.runIf(process.env.CI === 'true' || findHaproxy() !== undefined)(
    'runs HAProxy from it, counting each instance up from /readyz and spreading requests over them',
    async () => {
      const binary = findHaproxy();
      expect(binary, 'HAProxy must be installed in CI').toBeDefined();
      const servers = await Promise.all(
        ['a', 'b'].map(
          (name) =>
            new Promise<http.Server>((resolve) => {
              const server = http.createServer((_request, response) => response.end(name));
              server.listen(0, '127.0.0.1', () => resolve(server));
            }),
        ),
      );
      const addresses = servers.map(
        (server) => `127.0.0.1:${(server.address() as AddressInfo).port}`,
      );
      const haproxy = await startHaproxy(binary!, root, await freePort(), addresses);
      try {
        expect(await haproxy.isUp(addresses[0]!)).toBe(true);
        const answers = new Set<string>();
        for (let i = 0; i < 6; i += 1) answers.add(await (await fetch(haproxy.url)).text());
        expect([...answers].sort()).toEqual(['a', 'b']);
      } finally {
        await haproxy.stop();
        for (const server of servers) await new Promise((resolve) => server.close(resolve));
      }
    },
    30_000,
  );
});

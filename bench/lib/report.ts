type Row = (string | number)[];

function table(title: string, header: string[], rows: Row[]): string {
  const cells = [header, ...rows].map((row) => row.map(String));
  const widths = header.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [
    `\n${title}\n`,
    line(cells[0]!),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...cells.slice(1).map(line),
  ].join('\n');
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

type AnyRecord = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const span = (r: { median: number; min: number; max: number }, unit = '') =>
  `${r.median}${unit} (${r.min}–${r.max})`;

/** One row per page (home, the floor, every other route): medians with the range of the runs. */
function pageTable(page: AnyRecord): string {
  const rows: Row[] = Object.entries(page.targets as AnyRecord).map(([name, t]) => {
    const s = t.scores;
    const m = t.min_scores;
    return [
      name,
      `${s.performance}/${s.accessibility}/${s['best-practices']}/${s.seo}`,
      `${m.performance}/${m.accessibility}/${m['best-practices']}/${m.seo}`,
      span(t.lcp_ms, ' ms'),
      name === 'floor' ? '1' : String(page.lcp_ratio_to_floor[name] ?? ''),
      span(t.fcp_ms, ' ms'),
      span(t.tbt_ms, ' ms'),
      String(t.cls.max),
    ];
  });
  const summary = [
    `measured after publishing a changed headline and price (home served it ${page.publish_ms} ms after the POST)`,
    `home/floor LCP: ${page.lcp_ratio} (per pair ${page.lcp_ratio_pairs.min}–${page.lcp_ratio_pairs.max}); target ≤ 1.05, routes ≤ 1.10`,
    `home TBT − floor TBT: ${page.tbt_over_floor_ms} ms; target ≤ 30 ms`,
    `HTML br: home ${kb(page.floor_bytes.home_html_br)}, floor ${kb(page.floor_bytes.html_br)} (floor raw ${kb(page.floor_bytes.html)})`,
    `first-load JS: ${kb(page.js_gzip_bytes)} gzip / ${kb(page.js_raw_bytes)} raw (≤ 90 kB gzip); CSS ${kb(page.css_gzip_bytes)} gzip / ${kb(page.css_raw_bytes)} raw`,
  ];
  return [
    table(
      `Page (Lighthouse mobile, ${page.pairs} alternating rounds; median (min–max))`,
      ['page', 'scores (median)', 'scores (min)', 'LCP', 'LCP / floor', 'FCP', 'TBT', 'CLS max'],
      rows,
    ),
    '',
    ...summary.map((line) => `- ${line}`),
  ].join('\n');
}

/** The results as Markdown tables, each figure next to its target. */
export function formatResults(results: AnyRecord): string {
  return resultSections(results)
    .map((section) => section.text)
    .join('\n');
}

/** Each part's tables, in the bench's order, under the part's name. */
export function resultSections(results: AnyRecord): { part: string; text: string }[] {
  const sections: { part: string; text: string }[] = [];
  const add = (part: string, text: string) => sections.push({ part, text });
  const { page, submit, admin, start } = results;
  if (page) add('page', pageTable(page));
  if (submit) {
    const rows: Row[] = [];
    for (const [db, r] of Object.entries(submit as AnyRecord)) {
      for (const [mail, load] of [
        ['instant', r],
        ['150 ms', r.smtp_150ms],
      ] as const) {
        rows.push([
          `${db}, ${mail}`,
          load.rps,
          `${load.p50_ms} ms`,
          `${load.p99_ms} ms`,
          load.errors,
          r.bare.rps,
          `${r.bare.p99_ms} ms`,
          load.ratio_to_bare,
          load.p99_ratio_to_bare,
          load.left > 0 ? `> ${load.drain_s} s (${load.left} left)` : `${load.drain_s} s`,
          load.delivered_per_s,
          load.delivered_ratio_to_bare,
          load.max_ms === undefined ? '' : `${load.max_ms} ms`,
        ]);
      }
    }
    add(
      'submit',
      table(
        'Submit (order form, 10 s, 50 connections; bare = the same 3 SQL statements only; mail server answering at once or 150 ms late; drain = until every email arrived)',
        [
          'db, mail server',
          'req/s',
          'p50',
          'p99',
          'errors',
          'bare req/s',
          'bare p99',
          'real/bare',
          'p99 real/bare',
          'drain',
          'delivered/s',
          'delivered/bare',
          'max',
        ],
        rows,
      ),
    );
  }
  if (admin) {
    const rows: Row[] = [];
    const ms = (value: number) => `${value} ms`;
    for (const [db, sizes] of Object.entries(admin as AnyRecord)) {
      for (const [count, r] of Object.entries(sizes as AnyRecord)) {
        rows.push([
          db,
          Number(count).toLocaleString('en-US'),
          ms(r.p50_ms),
          ms(r.p95_ms),
          `${ms(r.page0.p50_ms)} / ${ms(r.page0.p95_ms)}`,
          `${ms(r.middle.p50_ms)} / ${ms(r.middle.p95_ms)} (page ${r.middle.page})`,
        ]);
      }
    }
    add(
      'admin',
      table(
        `Admin list (form_submissions, signed in, 200 sequential requests per page; target: p95 at 1,000,000 rows ≤ 2× p95 at 10,000)`,
        ['db', 'rows', 'p50', 'p95', 'page 0 p50 / p95', 'middle page p50 / p95'],
        rows,
      ),
    );
  }
  if (results.admin_search) add('admin-search', adminSearchTable(results.admin_search));
  if (results.memory) {
    add(
      'memory',
      table(
        'Memory (the app and every process of its database, PSS summed; peak sampled every 20 ms during a first start on a new data dir; idle = 10 s and 30 s after it)',
        [
          'db',
          'peak, first start',
          'idle',
          'idle 30 s',
          'app alone: peak RSS / idle PSS',
          'processes',
        ],
        Object.entries(results.memory as AnyRecord).map(([db, r]) => [
          db,
          `${r.peak_first_start_pss_mb} MB`,
          `${r.idle_pss_mb} MB`,
          `${r.idle_30s_pss_mb} MB`,
          `${r.app_peak_rss_mb} MB / ${r.app_idle_pss_mb} MB`,
          r.processes_idle,
        ]),
      ),
    );
  }
  if (start) {
    add(
      'start',
      table(
        'Start (process start to /readyz OK; RSS of the app 5 s after start; after kill = ready again after a kill -9 under submissions)',
        ['db', 'ready, new', 'ready, existing', 'idle RSS', 'ready, after kill'],
        Object.entries(start as AnyRecord).map(([db, r]) => [
          db,
          `${r.ready_ms_new} ms`,
          `${r.ready_ms_existing} ms`,
          `${r.rss_mb} MB`,
          r.ready_ms_after_kill === undefined ? '' : `${r.ready_ms_after_kill} ms`,
        ]),
      ),
    );
  }
  if (results.backup) {
    const run = (r: AnyRecord | undefined) => (r ? `${r.seconds} s, ${r.peak_rss_mb} MB` : '');
    add(
      'backup',
      table(
        'Backup and restore (npm run db:backup / db:restore, own process; time, peak RSS; floor = the same process opening the database only)',
        ['db', 'rows', 'floor', 'backup', 'file', 'restore', 'pg_dump -Fc', 'pg_restore'],
        Object.entries(results.backup as AnyRecord).map(([db, r]) => [
          db,
          r.rows.toLocaleString('en'),
          run(r.open_only),
          run(r.backup),
          `${r.backup.file_mb} MB`,
          run(r.restore),
          r.pg_dump ? `${run(r.pg_dump)}, ${r.pg_dump.file_mb} MB` : '',
          run(r.pg_restore),
        ]),
      ),
    );
  }
  if (results.orders) add('orders', ordersTables(results.orders));
  if (results.events) {
    add(
      'events',
      table(
        "Insight events (sendBeacon page views from 5,000 addresses, 10 s, 50 connections; bare = the submit bench's 3 SQL statements; checked = events stored of those answered 204)",
        [
          'db',
          'req/s',
          'p50',
          'p99',
          'max',
          'errors',
          'bare req/s',
          'bare p99',
          'events/bare',
          'p99 events/bare',
          'checked',
        ],
        Object.entries(results.events as AnyRecord).map(([db, r]) => [
          db,
          r.events.rps,
          `${r.events.p50_ms} ms`,
          `${r.events.p99_ms} ms`,
          `${r.events.max_ms} ms`,
          r.events.errors,
          r.bare.rps,
          `${r.bare.p99_ms} ms`,
          r.events.ratio_to_bare,
          r.events.p99_ratio_to_bare,
          `${r.check.stored} of ${r.check.answered}, ${r.check.visitors} visitors`,
        ]),
      ),
    );
  }
  if (results.insights) {
    add(
      'insights',
      table(
        'Sources and campaigns (the Sources answer for the whole range over the roll-up, p50 of sequential requests, against page 0 of an admin table; events carrying one of the sources at 50 connections against the bare route; targets: page ≤ 2× plain, events ≥ 0.8× bare)',
        [
          'db',
          'roll-up',
          'sources p50',
          'sources p95',
          'plain p50',
          'sources/plain',
          'events req/s',
          'events p99',
          'bare req/s',
          'events/bare',
        ],
        Object.entries(results.insights as AnyRecord).map(([db, r]) => [
          db,
          `${r.rollup.days} days, ${r.rollup.sources} sources, ${r.rollup.events.toLocaleString('en')} events, ${r.rollup.orders} orders`,
          `${r.sources_page.p50_ms} ms`,
          `${r.sources_page.p95_ms} ms`,
          `${r.plain_page.p50_ms} ms`,
          r.page_ratio_to_plain,
          r.events.rps,
          `${r.events.p99_ms} ms`,
          r.bare.rps,
          r.events.ratio_to_bare,
        ]),
      ),
    );
  }
  if (results.balancer) add('balancer', balancerTable(results.balancer));
  if (results.store) add('store', storeTable(results.store));
  if (results.list) add('list', listTable(results.list));
  if (results.broadcast) add('broadcast', broadcastTable(results.broadcast));
  return sections;
}

/** A broadcast through the server beside the plain nodemailer loop, each against its goal. */
function broadcastTable(broadcast: AnyRecord): string {
  const rows: Row[] = [];
  // The top-level keys repeat the embedded side's figures (DESIGN.md's bench keys).
  const sides = Object.entries(broadcast).filter(
    ([, r]) => r && typeof r === 'object' && r.instant,
  );
  for (const [db, r] of sides) {
    const i = r.instant;
    const slow = r.smtp_150ms;
    rows.push(
      [
        db,
        `${r.subscribers} recipients, mail server answering at once (msgs/s over ${i.broadcast.seconds} s; ${r.connections} connections)`,
        `${r.messages_per_second} = ${r.ratio_to_plain}× plain ${r.plain_messages_per_second} (first message after ${r.first_message_s} s)`,
        '≥ 0.8× plain',
      ],
      [
        db,
        `mail server answering 150 ms late (msgs/s over ${slow.window_s} s)`,
        `${slow.messages_per_second} = ${slow.ratio_to_plain}× plain ${slow.plain_messages_per_second}`,
        '≥ 0.8× plain',
      ],
      [
        db,
        'server RSS growth while it sends',
        `+${r.rss_growth_mb} MB (from ${r.rss_before_mb} MB)`,
        '≤ 64 MB',
      ],
      [
        db,
        'GET / p99 while it sends',
        `${r.page_during_p99_ms} ms = ${r.page_p99_ratio}× idle ${r.page_idle_p99_ms} ms`,
        '≤ 1.5× idle',
      ],
    );
  }
  return table('Broadcasts', ['db', 'measure', 'result', 'goal'], rows);
}

/** The mailing list's links, import and search, each against its goal. */
function listTable(list: AnyRecord): string {
  const rows: Row[] = [];
  for (const [db, r] of Object.entries(list)) {
    const link = (name: string, l: AnyRecord) => [
      db,
      `${name} POSTs/s, 50 connections (p99; errors)`,
      `${l.rps} (${l.p99_ms} ms; ${l.errors}) = ${l.ratio_to_bare}× bare ${r.bare.rps}`,
      '≥ 0.8× bare',
    ];
    const i = r.import;
    rows.push(
      link('confirm', r.confirm),
      link('one-click unsubscribe', r.unsubscribe),
      [db, `import of ${i.rows} rows`, `${i.seconds} s, ${i.rows_per_s} rows/s`, ''],
      [
        db,
        'RSS growth during the import',
        `+${i.rss_growth_mb} MB (from ${i.rss_before_mb} MB)`,
        '≤ 64 MB',
      ],
      [
        db,
        'GET / p99 during the import',
        `${i.page_during_p99_ms} ms = ${i.page_p99_x_idle}× idle ${i.page_idle_p99_ms} ms`,
        '≤ 2× idle',
      ],
      [
        db,
        `search ${r.search.q} among ${r.search.rows} (p50)`,
        `${r.search.search_ms} ms = ${r.search.x_plain}× plain page ${r.search.plain_ms} ms`,
        '≤ 2× plain',
      ],
    );
  }
  return table('Mailing list (issue 36)', ['db', 'measure', 'result', 'goal'], rows);
}

/** Publishing, product downloads and image uploads, each against its goal. */
function storeTable(store: AnyRecord): string {
  const rows: Row[] = [];
  for (const [db, r] of Object.entries(store)) {
    const d = r.downloads;
    rows.push(
      [
        db,
        'publish until GET / shows it',
        `${r.publish.median_ms} ms (${r.publish.each_ms.join(', ')})`,
        '< 1000 ms',
      ],
      [
        db,
        `${d.clients} downloads of ${d.file_mb} MB at once, RSS growth per round`,
        `${d.rss_growth_mb.map((mb: number) => `+${mb} MB`).join(', ')} (from ${d.rss_before_mb} MB; ${d.mb_per_s} MB/s)`,
        '< 50 MB',
      ],
      [
        db,
        `upload of a ${r.image.width}×${r.image.height} JPEG (${r.image.mb} MB) until 201`,
        `${r.image.median_ms} ms (${r.image.each_ms.join(', ')})`,
        '< 2000 ms',
      ],
    );
  }
  return table('Store content (median (each round))', ['db', 'measure', 'result', 'goal'], rows);
}

/** Requests per second straight to one instance, through nginx to one, and to three. */
function balancerTable(balancer: AnyRecord): string {
  if (balancer.skipped) return `\nBalancer: skipped (${balancer.skipped})`;
  const rows: Row[] = [];
  for (const [route, setups] of Object.entries(balancer.routes as AnyRecord)) {
    for (const [setup, r] of Object.entries(setups as AnyRecord)) {
      rows.push([
        route,
        setup,
        r.rps,
        r.best_rps,
        (r.rounds_rps as number[]).join(', '),
        `${r.p50_ms} ms`,
        `${r.p99_ms} ms`,
        r.errors,
      ]);
    }
    const ratios = balancer.ratios[route];
    rows.push([
      route,
      'nginx_1/direct, nginx_3/nginx_1',
      `${ratios.nginx_1_to_direct}, ${ratios.nginx_3_to_nginx_1}`,
      ...Array<string>(5).fill(''),
    ]);
  }
  return table(
    `Balancer (50 connections, median of alternating rounds; ${balancer.cpus} cores shared by nginx, every instance and the load generator: the 3-instance figure shows nginx's cost, not scaling; config ${balancer.template})`,
    ['route', 'setup', 'req/s', 'best', 'rounds', 'p50', 'p99', 'errors'],
    rows,
  );
}

/** Each search and count next to the plain page of the same size and run. */
function adminSearchTable(search: AnyRecord): string {
  const x = (ms: number, times: number) => `${ms} ms (${times}×)`;
  const rows: Row[] = [];
  for (const [db, sizes] of Object.entries(search)) {
    for (const r of sizes as AnyRecord[]) {
      rows.push([
        db,
        r.rows.toLocaleString('en-US'),
        `${r.plain_ms} ms`,
        ...['rare', 'address', 'address_start', 'local_part'].map((name) =>
          x(r.searches[name].ms, r.searches[name].x_plain),
        ),
        x(r.unsent_count_ms, r.unsent_count_x_plain),
        `${r.intent_count_ms} ms`,
        `${r.export.seconds} s, +${r.export.rss_growth_mb} MB`,
      ]);
    }
  }
  return table(
    'Admin search (form_submissions, addresses bulk1@scale.test…, p50 of 60 interleaved rounds; target: searches and counts ≤ 5× plain, goal 2×; the plans are in the JSON)',
    [
      'db',
      'rows',
      'plain page',
      'rare word',
      'address',
      'address start',
      'local part',
      '"email not sent"',
      'purchase intent',
      'Export all, RSS growth',
    ],
    rows,
  );
}

/** The webhook loads with the bare route beside them, and the downloads beside @fastify/static. */
function ordersTables(orders: AnyRecord): string {
  const loads: Row[] = [];
  const downloads: Row[] = [];
  for (const [db, r] of Object.entries(orders)) {
    for (const [name, load] of [
      ['new sessions', r.webhook],
      ['replayed event', r.replay],
    ] as const) {
      loads.push([
        `${db}, ${name}`,
        load.rps,
        `${load.p50_ms} ms`,
        `${load.p99_ms} ms`,
        `${load.max_ms} ms`,
        load.errors,
        r.bare.rps,
        `${r.bare.p99_ms} ms`,
        `${r.bare.max_ms} ms`,
        load.ratio_to_bare,
        load.p99_ratio_to_bare,
        name === 'new sessions'
          ? `${r.check.orders} orders (${r.check.unanswered} unanswered), 1 link each; mail ${load.left > 0 ? `> ${load.drain_s} s (${load.left} left)` : `${load.drain_s} s`}`
          : '',
      ]);
    }
    for (const round of r.downloads.rounds) {
      const side = (d: AnyRecord) =>
        `${d.mb_per_s} MB/s, ${d.p50_ms} ms (max ${d.max_ms}), +${d.rss_growth_mb} MB`;
      downloads.push([
        db,
        round.clients,
        round.link.downloads,
        side(round.link),
        side(round.static),
        round.ratio,
      ]);
    }
  }
  return [
    table(
      "Orders webhook (signed checkout.session.completed, 10 s, 50 connections; bare = the submit bench's 3 SQL statements; checked = orders in the database after all loads)",
      [
        'db, events',
        'req/s',
        'p50',
        'p99',
        'max',
        'errors',
        'bare req/s',
        'bare p99',
        'bare max',
        'webhook/bare',
        'p99 webhook/bare',
        'checked',
      ],
      loads,
    ),
    table(
      `Downloads (${Object.values(orders)[0]?.downloads.file_mb} MB random file, a new connection per download; MB/s of the round, median time per download, server RSS growth)`,
      ['db', 'clients', 'downloads', '/download/:token', '@fastify/static', 'link/static'],
      downloads,
    ),
  ].join('\n');
}

export function printResults(results: AnyRecord): void {
  console.log(formatResults(results));
}

import { tableRowsPath } from '../../src/shared/admin/table-api';
import { insightSourcesPath } from '../../src/shared/insights/insights-api';
import { addDays, utcDay } from '../../src/shared/utc-days';
import { startAdminBenchServer } from '../lib/admin-bench-server';
import { postJson } from '../lib/sign-in';
import { sizes } from '../lib/sizes';
import { percentile, round } from '../lib/stats';
import { eventLoad } from './events';
import { BARE_ROUTE, load, type LoadResult } from './submit';

/**
 * The roll-up the Sources page reads (raw-event equivalents over days and distinct sources),
 * the paid orders carrying sources, the requests timed per page, and the seconds of each load.
 */
const SIZES = {
  full: {
    days: 90,
    sources: 200,
    events: 5_000_000,
    orders: 5_000,
    requests: 100,
    warmUp: 10,
    warmUpS: 2,
    loadS: 5,
  },
  quick: {
    days: 30,
    sources: 50,
    events: 200_000,
    orders: 500,
    requests: 10,
    warmUp: 3,
    warmUpS: 1,
    loadS: 1,
  },
};

/** The rows of form_submissions behind the plain admin page it is compared with. */
const PLAIN_ROWS = 1_000;

type Latency = { p50_ms: number; p95_ms: number };

export type InsightsResults = {
  rollup: { days: number; sources: number; rows: number; events: number; orders: number };
  /** GET /api/admin/insights/sources for the whole range, and page 0 of an admin table. */
  sources_page: Latency;
  plain_page: Latency;
  page_ratio_to_plain: number;
  /** POST /api/events with a source (one of `sources`) against the bare route. */
  bare: LoadResult;
  events: LoadResult & { ratio_to_bare: number };
};

async function timePage(
  url: string,
  cookie: string,
  rounds: { requests: number; warmUp: number },
): Promise<Latency> {
  const samples: number[] = [];
  for (let i = 0; i < rounds.warmUp + rounds.requests; i += 1) {
    const started = performance.now();
    const response = await fetch(url, { headers: { cookie } });
    await response.arrayBuffer();
    const elapsed = performance.now() - started;
    if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
    if (i >= rounds.warmUp) samples.push(elapsed);
  }
  return {
    p50_ms: round(percentile(samples, 50), 1),
    p95_ms: round(percentile(samples, 95), 1),
  };
}

/**
 * Sources and campaigns at scale (DESIGN.md "Sources and campaigns"): the owner's Sources
 * answer for a range over a roll-up of millions of events and hundreds of sources, against a
 * plain admin page on the same server; then ingestion of events that carry a source, at 50
 * connections, against the submit bench's bare route.
 */
export async function benchInsights(
  root: string,
  dataDir: string,
  postgresAdminUrl?: string,
): Promise<InsightsResults> {
  const size = sizes(SIZES);
  const { server, cookie, close } = await startAdminBenchServer(root, dataDir, postgresAdminUrl, {
    TRUST_PROXY: '1',
  });
  try {
    const { url } = server;
    const filled = (await (
      await postJson(url, '/__bench/fill-insights', {
        days: size.days,
        sources: size.sources,
        events: size.events,
        orders: size.orders,
      })
    ).json()) as { rows: number; events: number };
    await postJson(url, '/__bench/fill', { rows: PLAIN_ROWS });

    const today = utcDay();
    const range = { from: addDays(today, 1 - size.days), to: today };
    const sourcesPage = await timePage(`${url}${insightSourcesPath(range)}`, cookie, size);
    const plainPage = await timePage(
      `${url}${tableRowsPath('form_submissions')}?page=0`,
      cookie,
      size,
    );

    const withSource = (sequence: number) => {
      const source = sequence % size.sources;
      return {
        source: `source-${source}.example`,
        medium: source % 4 === 0 ? '' : `medium-${source % 5}`,
        campaign: `campaign-${source % 20}`,
        channel: 'referral',
      };
    };
    await eventLoad(url, size.warmUpS, withSource);
    await load(url, BARE_ROUTE, size.warmUpS);
    const bare = await load(url, BARE_ROUTE, size.loadS);
    const events = await eventLoad(url, size.loadS, withSource);
    for (const [name, result] of Object.entries({ bare, events })) {
      if (result.errors > 0) throw new Error(`The ${name} load had ${result.errors} errors`);
    }
    return {
      rollup: {
        days: size.days,
        sources: size.sources,
        rows: filled.rows,
        events: filled.events,
        orders: size.orders,
      },
      sources_page: sourcesPage,
      plain_page: plainPage,
      page_ratio_to_plain: round(sourcesPage.p50_ms / plainPage.p50_ms, 2),
      bare,
      events: { ...events, ratio_to_bare: round(events.rps / bare.rps, 2) },
    };
  } finally {
    await close();
  }
}

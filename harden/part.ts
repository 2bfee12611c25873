/**
 * One part of `npm run harden`: it starts what it needs (the built app on free ports, fresh
 * data, scratch PostgreSQL databases), attacks or breaks it, cleans up, and reports.
 */
export type HardenContext = {
  /** The repository root (dist/ is built). */
  root: string;
  /** An empty directory of this part's own for data dirs and logs. */
  scratchDir: string;
  /** A PostgreSQL server to create scratch databases on, when the environment names one. */
  postgresAdminUrl?: string;
  /** Shorter runs for a quick check (`--quick`): fewer inputs, a shorter soak. */
  quick: boolean;
};

/** One line of the summary table. */
export type HardenCheck = {
  /** What was checked, e.g. "fuzz POST /api/forms/order". */
  check: string;
  /** What was measured, e.g. "10,000 bodies, 0 × 5xx, 0 invalid rows". */
  result: string;
  ok: boolean;
  /** Figures for the JSON report and the README. */
  figures?: Record<string, number | string>;
};

export type HardenPart = (context: HardenContext) => Promise<HardenCheck[]>;

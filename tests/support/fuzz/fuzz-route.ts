import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';

/** The tally of one fuzzed route, for a test's assertion or a harden report line. */
export type RouteReport = {
  route: string;
  inputs: number;
  '2xx': number;
  '4xx': number;
  '429': number;
  '5xx': number;
  invalidRows: number;
  /** The first broken rule with its (shrunk) input, or null when every input passed. */
  failure: string | null;
};

export function emptyReport(route: string): RouteReport {
  return {
    route,
    inputs: 0,
    '2xx': 0,
    '4xx': 0,
    '429': 0,
    '5xx': 0,
    invalidRows: 0,
    failure: null,
  };
}

/** Why an answer breaks the rules, or null. `shape` is the route's error body shape. */
export function answerProblem(
  response: LightMyRequestResponse,
  shape: 'form' | 'api',
): string | null {
  const status = response.statusCode;
  if (status >= 500) return `answered ${status}: ${response.body.slice(0, 200)}`;
  if (status < 400) return null;
  if (!/^application\/json/.test(String(response.headers['content-type']))) {
    return `answered ${status} without JSON: ${response.body.slice(0, 200)}`;
  }
  let body: Record<string, unknown>;
  try {
    body = response.json();
  } catch {
    return `answered ${status} with unreadable JSON: ${response.body.slice(0, 200)}`;
  }
  const message = body.message;
  if (typeof message !== 'string' || message.trim() === '') {
    return `answered ${status} without a message: ${response.body.slice(0, 200)}`;
  }
  if (shape === 'form' && body.status !== 'error') {
    return `answered ${status} without status "error": ${response.body.slice(0, 200)}`;
  }
  if (shape === 'api' && (typeof body.error !== 'string' || body.error === '')) {
    return `answered ${status} without an error name: ${response.body.slice(0, 200)}`;
  }
  return null;
}

function shortly(value: unknown): string {
  const text = fc.stringify(value);
  return text.length > 600 ? `${text.slice(0, 600)}… (${text.length} characters)` : text;
}

/**
 * Sends `runs` generated inputs to one route, one at a time, and checks each answer; on the
 * first broken rule fast-check shrinks the input, and the report keeps the smallest one.
 */
export async function fuzzRoute<T>(options: {
  route: string;
  inputs: fc.Arbitrary<T>;
  runs: number;
  seed?: number;
  send(input: T): Promise<LightMyRequestResponse>;
  /** Why this answer to this input is wrong, or null. */
  check(input: T, response: LightMyRequestResponse): string | null;
}): Promise<RouteReport> {
  const report = emptyReport(options.route);
  const property = fc.asyncProperty(options.inputs, async (input) => {
    const response = await options.send(input);
    report.inputs++;
    const status = response.statusCode;
    if (status === 429) report['429']++;
    if (status >= 500) report['5xx']++;
    else if (status >= 400) report['4xx']++;
    else report['2xx']++;
    const problem = options.check(input, response);
    if (problem) throw new Error(problem);
  });
  const details = await fc.check(property, {
    numRuns: options.runs,
    seed: options.seed,
    maxSkipsPerRun: 0,
  });
  if (details.failed) {
    const reason =
      details.errorInstance instanceof Error
        ? details.errorInstance.message
        : String(details.errorInstance);
    report.failure = `${reason} — input ${shortly(details.counterexample?.[0])} (seed ${details.seed}, path ${details.counterexamplePath})`;
  }
  return report;
}

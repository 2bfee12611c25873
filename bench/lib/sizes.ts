/**
 * A part's sizes (rows, rounds, seconds of load) for a full run and for `--quick`, the smoke
 * run of every part in about two minutes. Each part keeps its table beside its code and reads
 * it with sizes() when it runs; run.ts chooses once.
 */
export type Sized<T> = { full: T; quick: T };

let quickRun = false;

export function useQuickSizes(quick: boolean): void {
  quickRun = quick;
}

export function isQuickRun(): boolean {
  return quickRun;
}

/** The sizes of this run: call it inside the part, not when its module loads. */
export function sizes<T>(table: Sized<T>): T {
  return quickRun ? table.quick : table.full;
}

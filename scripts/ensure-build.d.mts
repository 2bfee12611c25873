/** Builds dist/ when it is missing or stale; resolves true when it built. */
export function ensureBuild(root: string): Promise<boolean>;

type Sized = { raw: number; gzip: number };

/** The home page's first-load JS: entry, module preloads and their static imports. */
export function homeJsSize(
  clientDir: string,
): Promise<Sized & { files: (Sized & { file: string })[] }>;

const UNITS = ['KB', 'MB', 'GB'] as const;

/**
 * A size as the owner reads it ("512 bytes", "84 KB", "12.4 MB"), in units of 1024 as the
 * server's upload limits count them.
 */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = value < 10 || unit > 0 ? 1 : 0;
  return `${Number(value.toFixed(digits))} ${UNITS[unit]}`;
}

/**
 * `Content-Disposition: attachment` naming the download: `filename` in plain ASCII for every
 * client, then the exact name in RFC 5987 form (`filename*`) for those that read it. A name
 * that is plain ASCII by construction (a backup's date stamp) may leave the second form out.
 */
export function attachment(fileName: string, { exactName = true } = {}): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const plain = `attachment; filename="${ascii}"`;
  return exactName ? `${plain}; filename*=UTF-8''${encodeURIComponent(fileName)}` : plain;
}

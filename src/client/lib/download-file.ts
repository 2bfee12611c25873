/** Saves `content` as a file named `name` through a temporary Blob URL. */
export function downloadFile(name: string, content: BlobPart[], type: string): void {
  const url = URL.createObjectURL(new Blob(content, { type }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  anchor.hidden = true;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Revoked on the next task: some browsers still read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

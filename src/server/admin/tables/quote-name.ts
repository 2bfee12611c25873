/** A name from a request, quoted for a message; a long one is cut short. */
export function quoteName(name: string): string {
  return `"${name.length > 64 ? `${name.slice(0, 64)}…` : name}"`;
}

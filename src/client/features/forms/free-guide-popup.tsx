/** Slot for the scroll-triggered free-guide popup (SPEC.md §2, §4); the forms capability fills it. */
export function FreeGuidePopup() {
  return null;
}

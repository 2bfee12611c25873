import { useEffect, useRef, useState, type ComponentType } from 'react';
import { track } from '../../analytics/analytics';
import type { FreeGuideDialogProps } from './free-guide-dialog';

/** SPEC.md §4 and §9: shown once per session, past 40% of the scrollable height. */
export const POPUP_SESSION_FLAG = 'freeGuidePopupShown';
export const POPUP_SCROLL_THRESHOLD = 0.4;
const popupParams = { type: 'free_product_gift' } as const;

function sessionFlag(): boolean {
  try {
    return sessionStorage.getItem(POPUP_SESSION_FLAG) === 'true';
  } catch {
    return false;
  }
}

function setSessionFlag() {
  try {
    sessionStorage.setItem(POPUP_SESSION_FLAG, 'true');
  } catch {
    // Storage refused (private mode): the popup still shows only once in this page.
  }
}

function scrolledPastThreshold(): boolean {
  const scrollable = document.documentElement.scrollHeight - window.innerHeight;
  return scrollable > 0 && window.scrollY / scrollable >= POPUP_SCROLL_THRESHOLD;
}

/**
 * The free-guide popup's trigger: a scroll watcher on the home page. The dialog itself is a
 * separate chunk, loaded only when the popup opens.
 */
export function FreeGuidePopup() {
  const [Dialog, setDialog] = useState<ComponentType<FreeGuideDialogProps> | null>(null);
  const [open, setOpen] = useState(false);
  const triggered = useRef(false);

  useEffect(() => {
    if (sessionFlag()) return;
    const onScroll = () => {
      if (triggered.current || !scrolledPastThreshold()) return;
      triggered.current = true;
      window.removeEventListener('scroll', onScroll);
      if (sessionFlag()) return;
      void import('./free-guide-dialog').then(
        (module) => {
          setSessionFlag();
          track('popup_shown', popupParams);
          setDialog(() => module.FreeGuideDialog);
          setOpen(true);
        },
        (error: unknown) => console.warn('The free guide could not be loaded', error),
      );
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    // The visitor may be past the threshold already (scrolled before the app started, or a
    // reload that restored the position).
    onScroll();
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  if (!open || !Dialog) return null;
  return (
    <Dialog
      onClose={() => {
        // Closed for the rest of the page's life: `triggered` stays set.
        setOpen(false);
        track('popup_closed', popupParams);
      }}
    />
  );
}

import { useEffect, useEffectEvent, useRef, type KeyboardEvent, type ReactNode } from 'react';

const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([tabindex="-1"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[contenteditable="true"]',
  '[tabindex]:not([tabindex="-1"])',
].join(', ');

type ModalDialogProps = {
  /** Id of the element that names the dialog (its heading). */
  labelledBy: string;
  describedBy?: string;
  onClose(): void;
  /** Looks of the panel; the backdrop is the same for every dialog. */
  className: string;
  children: ReactNode;
};

/**
 * A modal dialog over a dimmed page: it takes focus, keeps Tab inside, closes on Escape, and
 * gives focus back to where it was when it closes.
 */
export function ModalDialog({
  labelledBy,
  describedBy,
  onClose,
  className,
  children,
}: ModalDialogProps) {
  const panel = useRef<HTMLDivElement>(null);

  const close = useEffectEvent(onClose);
  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    panel.current?.focus();
    const onKey = (event: globalThis.KeyboardEvent) => {
      // A control inside that handles Escape itself (an editor's link box) prevents the default.
      if (event.key === 'Escape' && !event.defaultPrevented) close();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus();
    };
  }, []);

  function keepFocusInside(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== 'Tab' || !panel.current) return;
    const focusable = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) return;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === panel.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-ink/60 p-4">
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        tabIndex={-1}
        onKeyDown={keepFocusInside}
        className={`focus:outline-none ${className}`}
      >
        {children}
      </div>
    </div>
  );
}

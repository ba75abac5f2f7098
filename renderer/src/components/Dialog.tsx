import {
  useEffect,
  useEffectEvent,
  useId,
  useLayoutEffect,
  useRef,
  type ReactNode,
  type RefObject,
} from 'react';
import './components.css';

/** What the person fills first: a field, else the first action that is not the header's Close. */
const FIRST_FIELD =
  'input:not([disabled]):not([type="hidden"]):not([hidden]), select:not([disabled]), textarea:not([disabled])';
const FOCUSABLE =
  'button:not([disabled]), a[href], input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"]), summary';
const FIRST_CONTROL =
  '.dialog-body button:not([disabled]), .dialog-body a[href], .dialog-actions button:not([disabled])';

/**
 * A native modal `<dialog>` that behaves the same everywhere: shown with `showModal` (the rest of the
 * window is inert, so focus stays inside), its first field focused, Escape closes it (only the dialog on
 * top, not the one under it), and focus goes back to the control that opened it when it closes.
 */
function useModal(open: boolean, onClose: () => void): RefObject<HTMLDialogElement | null> {
  const dialog = useRef<HTMLDialogElement>(null);
  const close = useEffectEvent(onClose);

  useLayoutEffect(() => {
    const element = dialog.current;
    if (!element || !open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!element.open) element.showModal();
    const first =
      element.querySelector<HTMLElement>(FIRST_FIELD) ?? element.querySelector<HTMLElement>(FIRST_CONTROL);
    first?.focus();
    return () => {
      if (element.open) element.close();
      // The opener may have gone (a row removed by the dialog); then the view itself takes focus.
      const back = opener?.isConnected ? opener : document.getElementById('main');
      back?.focus({ preventScroll: true });
    };
  }, [open]);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const cancel = (event: Event) => {
      event.preventDefault();
      close();
    };
    // A modal <dialog> makes the window inert, but Tab past its last control leaves for the browser.
    const wrapTab = (event: KeyboardEvent) => {
      if (event.key !== 'Tab') return;
      const controls = [...element.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
        (control) => control.closest('dialog') === element && control.getClientRects().length > 0,
      );
      const first = controls[0];
      const last = controls.at(-1);
      if (!first || !last) return;
      const leaving = event.shiftKey ? document.activeElement === first : document.activeElement === last;
      if (!leaving) return;
      event.preventDefault();
      (event.shiftKey ? last : first).focus();
    };
    element.addEventListener('cancel', cancel);
    element.addEventListener('keydown', wrapTab);
    return () => {
      element.removeEventListener('cancel', cancel);
      element.removeEventListener('keydown', wrapTab);
    };
  }, []);

  return dialog;
}

interface DialogProps {
  /** Shown while true; a dialog rendered only while needed leaves it out. */
  open?: boolean;
  title: string;
  /** Called on Escape and on the dialog's own Close or Cancel. */
  onClose(): void;
  className?: string;
  children: ReactNode;
  /** The buttons at the bottom (Cancel first, the main action last). */
  actions?: ReactNode;
}

/** A modal in the middle of the window: a question or a short form, labelled by its title. */
export function Dialog({ open = true, title, onClose, className, children, actions }: DialogProps) {
  const dialog = useModal(open, onClose);
  const headingId = useId();
  return (
    <dialog
      ref={dialog}
      className={['dialog', className].filter(Boolean).join(' ')}
      aria-labelledby={headingId}
    >
      {open && (
        <>
          <h2 id={headingId}>{title}</h2>
          <div className="dialog-body">{children}</div>
          {actions && <div className="dialog-actions">{actions}</div>}
        </>
      )}
    </dialog>
  );
}

interface DrawerProps {
  title: string;
  onClose(): void;
  className?: string;
  children: ReactNode;
}

/** A modal panel at the side of the window for settings with many fields; shown while rendered. */
export function Drawer({ title, onClose, className, children }: DrawerProps) {
  const dialog = useModal(true, onClose);
  const headingId = useId();
  return (
    <dialog
      ref={dialog}
      className={['drawer', className].filter(Boolean).join(' ')}
      aria-labelledby={headingId}
    >
      <header className="drawer-header">
        <h2 id={headingId}>{title}</h2>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </header>
      <div className="dialog-body">{children}</div>
    </dialog>
  );
}

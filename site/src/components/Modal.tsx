import { useEffect, useId, useRef, type ReactNode } from 'react';
import './components.css';
import { createPortal } from 'react-dom';
import { keepTabInside } from './focusTrap';

interface Props {
  title: string;
  /** Called on Escape and on a click on the backdrop. */
  onClose: () => void;
  children: ReactNode;
  /** SPEC §9: default modal max width 800px. */
  maxWidth?: number;
  className?: string;
}

/**
 * Modal is a dialog over a backdrop: focus moves into it, Tab and Shift+Tab cycle inside it,
 * Escape closes it, and focus returns to what had it before (the opener) on close. A form inside
 * it submits to itself only, never to a form the dialog was opened from.
 */
export function Modal({ title, onClose, children, maxWidth = 800, className = '' }: Props) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const first = ref.current?.querySelector<HTMLElement>('input, select, textarea, button, [tabindex]:not([tabindex="-1"])');
    (first ?? ref.current)?.focus();
    const onKey = (e: KeyboardEvent) => {
      // Only the topmost dialog answers (a confirm can sit over a form).
      const open = document.querySelectorAll('.modal');
      const dialog = ref.current;
      if (!dialog || open[open.length - 1] !== dialog) return;
      if (e.key === 'Escape') {
        closeRef.current();
        return;
      }
      keepTabInside(e, dialog);
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus?.();
    };
  }, []);

  return createPortal(
    // A dialog's own form submits to it alone: React carries a portal's events up the tree it was
    // opened from, which can be another form (the page editor's), so the submit stops here.
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()} onSubmit={(e) => e.stopPropagation()}>
      <div
        ref={ref}
        className={`modal ${className}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        style={{ maxWidth }}
      >
        <h2 id={titleId} className="modal-title">
          {title}
        </h2>
        {children}
      </div>
    </div>,
    document.querySelector('.app-root') ?? document.body,
  );
}

import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import { findingsSummary, itemLabel, ruleTitle, sectionField, type Finding } from '../../lib/a11y';
import './a11y.css';

/**
 * CONTROLS are what a finding describes inside its cell, first found first: a rich-text editor's
 * text (not its toolbar), the field's input, else its button (a media picker's).
 */
const CONTROLS = ['[contenteditable="true"]', 'input:not([type="hidden"]):not([type="color"]), textarea, select', 'button'];

function controlIn(root: Element): Element | null {
  for (const sel of CONTROLS) {
    const el = root.querySelector(sel);
    if (el) return el;
  }
  return null;
}

/** linkDescription adds id to an element's aria-describedby and returns the undo. */
function linkDescription(el: Element, id: string): () => void {
  const tokens = (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  if (!tokens.includes(id)) el.setAttribute('aria-describedby', [...tokens, id].join(' '));
  return () => {
    const left = (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter((t) => t && t !== id);
    if (left.length) el.setAttribute('aria-describedby', left.join(' '));
    else el.removeAttribute('aria-describedby');
  };
}

interface ListProps {
  findings: readonly Finding[];
  id?: string;
  /** inSection: the findings are inside a page section (each says where in it). */
  inSection?: boolean;
}

/**
 * FindingsList shows findings as text: the severity in words (never colour alone), the rule,
 * the message saying how to fix it and, when known, the text around the problem.
 */
export function FindingsList({ findings, id, inSection = false }: ListProps) {
  if (findings.length === 0) return null;
  return (
    <ul className="a11y-findings" id={id} aria-label="Accessibility findings">
      {findings.map((f, i) => {
        const where = inSection ? itemLabel(sectionField(f)) : '';
        return (
          <li key={`${f.rule}-${f.field}-${i}`} className={`a11y-finding a11y-finding--${f.severity}`} data-rule={f.rule}>
            <span className="a11y-finding__badge" aria-hidden="true">
              {f.severity === 'error' ? '!' : 'i'}
            </span>
            <span className="a11y-finding__body">
              <strong>{f.severity === 'error' ? 'Accessibility error' : 'Accessibility warning'}</strong>
              {' · '}
              <span className="a11y-finding__rule">{ruleTitle(f.rule)}</span>
              {where && <span className="a11y-finding__where"> ({where})</span>}
              {': '}
              <span className="a11y-finding__message">{f.message}</span>
              {f.context && <q className="a11y-finding__context">{f.context}</q>}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * WithFindings shows a field with its findings below it, and names the list in the field's
 * aria-describedby (the first control in the cell: its input, rich-text editor or picker
 * button), so a screen reader reads them with the field.
 */
export function WithFindings({ findings, children, className }: { findings: readonly Finding[] | undefined; children: ReactNode; className?: string }) {
  const id = useId();
  const ref = useRef<HTMLDivElement>(null);
  const has = (findings?.length ?? 0) > 0;
  // The control may mount later (a lazy rich-text editor): watched until the list goes.
  useEffect(() => {
    const root = ref.current;
    if (!has || !root) return;
    let linked: Element | null = null;
    let undo: (() => void) | undefined;
    const link = () => {
      const control = controlIn(root);
      if (control === linked) return;
      undo?.();
      linked = control;
      undo = control ? linkDescription(control, id) : undefined;
    };
    link();
    const watch = new MutationObserver(link);
    watch.observe(root, { childList: true, subtree: true });
    return () => {
      watch.disconnect();
      undo?.();
    };
  }, [has, id]);
  return (
    <div ref={ref} className={className}>
      {children}
      {has && <FindingsList findings={findings!} id={id} />}
    </div>
  );
}

/** useDescribedBy names an element (a page section) as described by the list with id, while it shows. */
export function useDescribedBy<T extends Element>(ref: RefObject<T | null>, id: string, active: boolean) {
  useEffect(() => {
    if (!active || !ref.current) return;
    return linkDescription(ref.current, id);
  }, [ref, id, active]);
}

/**
 * FindingsCount is the Save bar's count ("2 accessibility errors, 1 warning"), a polite live
 * region so the count is announced as it changes; it says nothing when there is nothing to fix.
 */
export function FindingsCount({ findings, checking, quiet = false }: { findings: readonly Finding[]; checking?: boolean; quiet?: boolean }) {
  const summary = findingsSummary(findings);
  const errors = findings.some((f) => f.severity === 'error');
  // quiet: a second copy of the bar (at the foot of a long form) shows the count without announcing it again.
  return (
    <span role={quiet ? undefined : 'status'} aria-live={quiet ? undefined : 'polite'} className={`a11y-count${summary ? (errors ? ' a11y-count--error' : ' a11y-count--warning') : ''}`} aria-busy={checking || undefined}>
      {summary}
    </span>
  );
}

import { useRef, type KeyboardEvent } from 'react';
import type { Language } from './languages';

interface Props {
  /** languages: the default first, then the site's others. */
  defaultLanguage: Language;
  others: Language[];
  /** current: the language shown; null is the default. */
  current: string | null;
  onChange: (lang: string | null) => void;
  /** dirty: languages with unsaved changes (the default's own: defaultDirty). */
  dirty: string[];
  defaultDirty?: boolean;
  /** withErrors: languages whose fields have errors. */
  withErrors?: string[];
  /** panelId is the id of the region the tabs control. */
  panelId: string;
  idPrefix: string;
}

/**
 * LanguageSwitch is the segmented control over a form: one tab per language of the site, each in
 * its own name (and lang), the default marked so. Arrow keys, Home and End move between them
 * (WAI-ARIA tabs, selection follows focus); a language with unsaved changes shows a dot, one with
 * errors a mark, both spelled out for screen readers.
 */
export function LanguageSwitch({ defaultLanguage, others, current, onChange, dirty, defaultDirty = false, withErrors = [], panelId, idPrefix }: Props) {
  const all = [defaultLanguage, ...others];
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const index = Math.max(0, all.findIndex((l) => (l.code === defaultLanguage.code ? current === null : l.code === current)));
  const pick = (i: number) => {
    const l = all[i];
    onChange(l.code === defaultLanguage.code ? null : l.code);
    refs.current[i]?.focus();
  };
  const onKey = (e: KeyboardEvent) => {
    const n = all.length;
    // In a right-to-left page the arrows would swap; the panel is left-to-right.
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowDown: index + 1, ArrowLeft: index - 1, ArrowUp: index - 1, Home: 0, End: n - 1 };
    if (!(e.key in moves)) return;
    e.preventDefault();
    pick((moves[e.key] + n) % n);
  };
  return (
    <div className="language-switch" role="tablist" aria-label="Language" onKeyDown={onKey}>
      {all.map((l, i) => {
        const isDefault = i === 0;
        const selected = i === index;
        const unsaved = isDefault ? defaultDirty : dirty.includes(l.code);
        const failed = !isDefault && withErrors.includes(l.code);
        return (
          <button
            key={l.code}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${idPrefix}-${l.code}`}
            aria-selected={selected}
            aria-controls={panelId}
            tabIndex={selected ? 0 : -1}
            className={`language-switch__tab${selected ? ' language-switch__tab--current' : ''}`}
            onClick={() => pick(i)}
          >
            <span lang={l.code} dir={l.dir}>
              {l.name}
            </span>
            {isDefault && <span className="language-switch__note"> (default)</span>}
            {failed && (
              <span className="language-switch__error" aria-hidden="true">
                {' '}!
              </span>
            )}
            {unsaved && (
              <span className="language-switch__dot" aria-hidden="true">
                {' '}•
              </span>
            )}
            {(unsaved || failed) && <span className="visually-hidden">{[unsaved && ', unsaved changes', failed && ', has errors'].filter(Boolean).join('')}</span>}
          </button>
        );
      })}
    </div>
  );
}

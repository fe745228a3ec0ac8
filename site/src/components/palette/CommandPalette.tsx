/**
 * The command palette (Ctrl + / or ⌘ + /): go to a screen by name, or find a page, form, event,
 * notice, staff member, album, media file or user by name as you type, and open it. An ARIA
 * combobox with a grouped listbox (focus stays in the input, aria-activedescendant names the
 * option), a polite live region with the number of results. Loaded lazily by the header bar.
 */
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { useNavigate } from 'react-router';
import { api, currentTenantId } from '../../api/client';
import { useApp } from '../../app/AppContext';
import { ALL_ROUTES } from '../../app/navigation';
import { KindIcon } from './icons';
import {
  GROUP_LABELS,
  countLabel,
  flatten,
  groupEntries,
  loadRecents,
  rankScreens,
  recentKey,
  rememberRecent,
  screenEntries,
  searchDelay,
  searchPath,
  toEntry,
  viewableKinds,
  visibleRecents,
  type Entry,
  type Group,
} from './palette';
import './palette.css';

interface Props {
  /** 'cancel': Esc or a click outside (focus goes back); 'open': an entry was opened. */
  onClose: (how: 'cancel' | 'open') => void;
}

const store = (): Storage | undefined => (typeof localStorage === 'undefined' ? undefined : localStorage);

type ListPage = { result?: Array<Record<string, unknown>> };

/** CommandPalette is the palette dialog; it is mounted while open. */
export function CommandPalette({ onClose }: Props) {
  const { user } = useApp();
  const navigate = useNavigate();
  const baseId = useId();
  const listId = `${baseId}-list`;
  const optionId = (i: number) => `${baseId}-opt-${i}`;
  const inputRef = useRef<HTMLInputElement>(null);

  const screens = useMemo(() => screenEntries(user, ALL_ROUTES), [user]);
  const kinds = useMemo(() => viewableKinds(user), [user]);
  const storageKey = recentKey(currentTenantId(), user?.id ?? '');
  const [recents] = useState(() => loadRecents(store(), storageKey));

  const [query, setQuery] = useState('');
  const [records, setRecords] = useState<Entry[]>([]);
  const [pending, setPending] = useState(false);
  const [failed, setFailed] = useState(false);
  // The active option by identity, so results arriving later do not move the user's place.
  const [activeKey, setActiveKey] = useState<string | null>(null);

  // Search the records: debounced, rounds at least MIN_GAP_MS apart, a stale answer dropped.
  const round = useRef(0);
  const lastStart = useRef(-Infinity);
  useEffect(() => {
    const q = query.trim();
    const mine = ++round.current;
    if (!q || kinds.length === 0) {
      setRecords([]);
      setPending(false);
      setFailed(false);
      return;
    }
    setPending(true);
    const timer = setTimeout(async () => {
      lastStart.current = Date.now();
      const answers = await Promise.allSettled(
        kinds.map((k) => api.get<ListPage>(searchPath(k, q)).then((page) => (page?.result ?? []).map((r) => toEntry(k.key, r)))),
      );
      if (mine !== round.current) return;
      setRecords(answers.flatMap((a) => (a.status === 'fulfilled' ? a.value : [])));
      setFailed(answers.some((a) => a.status === 'rejected'));
      setPending(false);
    }, searchDelay(Date.now(), lastStart.current));
    return () => clearTimeout(timer);
  }, [query, kinds]);

  const groups: Group[] = useMemo(() => {
    if (!query.trim()) {
      const recent = visibleRecents(recents, screens, kinds);
      return [
        { key: 'recent', label: GROUP_LABELS.recent, entries: recent },
        { key: 'screen', label: GROUP_LABELS.screen, entries: screens },
      ].filter((g) => g.entries.length > 0);
    }
    return groupEntries([...rankScreens(query, screens), ...records]);
  }, [query, records, recents, screens, kinds]);

  const options = useMemo(
    () => groups.flatMap((g) => g.entries.map((entry) => ({ entry, key: `${g.key}:${entry.kind}:${entry.id}` }))),
    [groups],
  );
  const active = activeKey === null ? -1 : options.findIndex((o) => o.key === activeKey);

  useEffect(() => {
    inputRef.current?.focus();
  }, []);
  useEffect(() => {
    if (active >= 0) document.getElementById(optionId(active))?.scrollIntoView({ block: 'nearest' });
    // optionId is derived from baseId, which never changes.
  }, [active]);

  const open = (entry: Entry) => {
    rememberRecent(store(), storageKey, entry);
    onClose('open');
    navigate(entry.path);
  };

  const move = (by: number) => {
    if (options.length === 0) return;
    const next = active < 0 ? (by > 0 ? 0 : options.length - 1) : (active + by + options.length) % options.length;
    setActiveKey(options[next].key);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    switch (e.key) {
      case 'ArrowDown':
        e.preventDefault();
        move(1);
        break;
      case 'ArrowUp':
        e.preventDefault();
        move(-1);
        break;
      case 'Enter': {
        e.preventDefault();
        // Without an arrowed choice, Enter takes the first (best) entry.
        const chosen = options[active >= 0 ? active : 0];
        if (chosen) open(chosen.entry);
        break;
      }
      case 'Escape':
        e.preventDefault();
        e.stopPropagation();
        onClose('cancel');
        break;
      case 'Tab':
        // The input is the dialog's only stop: focus stays in the palette until it closes.
        e.preventDefault();
        break;
    }
  };

  const typed = query.trim() !== '';
  const status = pending ? '' : typed ? countLabel(flatten(groups).length) + (failed ? '; some lists could not be searched' : '') : '';
  let index = -1;

  return createPortal(
    <div className="palette-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose('cancel')}>
      <div className="palette" role="dialog" aria-modal="true" aria-label="Command palette">
        <div className="palette-field">
          <svg className="palette-search-icon" width={18} height={18} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true" focusable="false">
            <circle cx="11" cy="11" r="7" />
            <path d="M20 20l-3.5-3.5" />
          </svg>
          <input
            ref={inputRef}
            className="palette-input"
            type="text"
            role="combobox"
            aria-label="Search or go to"
            aria-autocomplete="list"
            aria-expanded={options.length > 0}
            aria-controls={listId}
            aria-activedescendant={active >= 0 ? optionId(active) : undefined}
            aria-describedby={`${baseId}-hint`}
            placeholder="Search records or go to a screen…"
            autoComplete="off"
            spellCheck={false}
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              setActiveKey(null);
            }}
            onKeyDown={onKeyDown}
          />
          {pending && <span className="palette-spinner" aria-hidden="true" />}
        </div>
        <div id={listId} role="listbox" aria-label="Results" className="palette-list" hidden={options.length === 0}>
          {groups.map((g) => {
            const labelId = `${baseId}-group-${g.key}`;
            return (
              <div key={g.key} role="group" aria-labelledby={labelId} className="palette-group">
                <div id={labelId} role="presentation" className="palette-group-label">
                  <KindIcon kind={g.key} />
                  {g.label}
                </div>
                {g.entries.map((entry) => {
                  index += 1;
                  const i = index;
                  return (
                    <div
                      key={`${entry.kind}:${entry.id}`}
                      id={optionId(i)}
                      role="option"
                      aria-selected={i === active}
                      className={`palette-option${i === active ? ' palette-option--active' : ''}`}
                      onMouseDown={(e) => e.preventDefault()}
                      onMouseMove={() => i !== active && setActiveKey(options[i].key)}
                      onClick={() => open(entry)}
                    >
                      <KindIcon kind={entry.kind} />
                      <span className="palette-label">{entry.label}</span>
                      {g.key === 'recent' && <span className="palette-kind">{GROUP_LABELS[entry.kind] ?? entry.kind}</span>}
                    </div>
                  );
                })}
              </div>
            );
          })}
        </div>
        {typed && !pending && options.length === 0 && <p className="palette-empty">No screens or records match “{query.trim()}”.</p>}
        <p id={`${baseId}-hint`} className="palette-hint">
          <kbd>↑</kbd> <kbd>↓</kbd> to move, <kbd>Enter</kbd> to open, <kbd>Esc</kbd> to close
        </p>
        <div role="status" aria-live="polite" className="visually-hidden">
          {status}
        </div>
      </div>
    </div>,
    document.querySelector('.app-root') ?? document.body,
  );
}

export default CommandPalette;

import { lazy, Suspense, useRef, useState, type RefObject } from 'react';
import { Link } from 'react-router';
import { useApp } from '../app/AppContext';
import { MenuIcon, SearchIcon } from './icons';
import { NotificationBell } from './NotificationBell';
import { ThemeToggle } from './ThemeToggle';
import { useSearchShortcut } from './useSearchShortcut';

/** The command palette is its own chunk, fetched the first time it opens (or is hovered). */
const loadPalette = () => import('../components/palette/CommandPalette');
const CommandPalette = lazy(loadPalette);

const IS_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
const SHORTCUT = IS_MAC ? '⌘ + /' : 'Ctrl + /';

/** MenuButton is the phone's menu button: it opens the sidebar's drawer. */
export interface MenuButton {
  open: boolean;
  onOpen: () => void;
  /** controls is the drawer's id. */
  controls: string;
  ref: RefObject<HTMLButtonElement | null>;
}

interface Props {
  title: string;
  /** menu, below a tablet's width: the button that opens the navigation drawer. */
  menu?: MenuButton;
}

/** HeaderBar: page title, search (the command palette, Ctrl + /), theme switch, bell and profile link. */
export function HeaderBar({ title, menu }: Props) {
  const { user } = useApp();
  const [paletteOpen, setPaletteOpen] = useState(false);
  // What had focus before the palette opened: Esc gives it back.
  const returnFocus = useRef<HTMLElement | null>(null);
  const openPalette = (trigger?: HTMLElement) => {
    if (paletteOpen) {
      document.querySelector<HTMLInputElement>('.palette-input')?.focus();
      return;
    }
    const focused = document.activeElement;
    // A click may leave focus on the body (Safari): then the search button takes it back.
    returnFocus.current = focused instanceof HTMLElement && focused !== document.body ? focused : (trigger ?? null);
    setPaletteOpen(true);
  };
  const closePalette = (how: 'cancel' | 'open') => {
    setPaletteOpen(false);
    if (how === 'cancel') returnFocus.current?.focus();
    returnFocus.current = null;
  };
  useSearchShortcut(() => openPalette());
  const initials = ((user?.firstName?.[0] ?? '') + (user?.lastName?.[0] ?? '') || user?.username?.[0] || '?').toUpperCase();

  return (
    <header className="header-bar">
      {menu && (
        <button
          type="button"
          ref={menu.ref}
          className="icon-button menu-button"
          aria-label="Menu"
          aria-expanded={menu.open}
          aria-controls={menu.controls}
          onClick={menu.onOpen}
        >
          <MenuIcon />
        </button>
      )}
      <h1 className="page-title">{title}</h1>
      <div className="header-actions">
        <button
          type="button"
          className="header-search"
          aria-haspopup="dialog"
          aria-keyshortcuts="Control+/ Meta+/"
          onClick={(e) => openPalette(e.currentTarget)}
          onPointerEnter={() => void loadPalette()}
          onFocus={() => void loadPalette()}
        >
          <SearchIcon />
          <span className="header-search-text">Search ({SHORTCUT})</span>
        </button>
        <ThemeToggle />
        <NotificationBell />
        <Link
          to="/my-profile"
          className="profile-link"
          title="My Profile"
        >
          {/* The name is the text shown, then "My Profile" (WCAG 2.5.3: speech users say what they see). */}
          <span className="avatar" aria-hidden="true">
            {initials}
          </span>
          <span className="profile-name">{user?.username}</span>
          <span className="visually-hidden">{user?.username ? ', My Profile' : 'My Profile'}</span>
        </Link>
      </div>
      {paletteOpen && (
        <Suspense fallback={null}>
          <CommandPalette onClose={closePalette} />
        </Suspense>
      )}
    </header>
  );
}

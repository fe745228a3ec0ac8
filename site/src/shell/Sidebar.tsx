import { useEffect, useRef } from 'react';
import { NavLink } from 'react-router';
import { useApp } from '../app/AppContext';
import { SECTIONS } from '../app/navigation';
import { keepTabInside } from '../components/focusTrap';
import { hasPermission } from '../lib/permissions';
import { ChevronLeftIcon, ChevronRightIcon, CloseIcon } from './icons';
import { TenantBrand } from './TenantBrand';

function monogram(label: string): string {
  const words = label.split(/\s+/).filter(Boolean);
  return (words.length > 1 ? words[0][0] + words[1][0] : label.slice(0, 2)).toUpperCase();
}

/** SIDEBAR_ID names the sidebar for the phone's menu button (aria-controls). */
export const SIDEBAR_ID = 'sidebar';

/** Drawer is the sidebar's state below a tablet's width, where it is an off-canvas drawer. */
export interface Drawer {
  open: boolean;
  /** onClose closes it (Esc, a tap outside, the close button, a screen chosen). */
  onClose: () => void;
}

interface Props {
  collapsed: boolean;
  onToggle: () => void;
  /** drawer, when set, makes the sidebar a drawer: hidden until opened, full labels, focus kept inside. */
  drawer?: Drawer;
}

/** Sidebar lists SECTIONS, filtered by permission; collapsed it shows monograms only; on a phone it is a drawer. */
export function Sidebar({ collapsed: collapsedWide, onToggle, drawer }: Props) {
  const { user } = useApp();
  const ref = useRef<HTMLElement>(null);
  const collapsed = drawer ? false : collapsedWide;
  const open = drawer?.open ?? false;
  const closeRef = useRef(drawer?.onClose);
  closeRef.current = drawer?.onClose;

  // Open, the drawer takes focus and keeps it (Tab cycles inside); Esc closes it.
  useEffect(() => {
    if (!open) return;
    const root = ref.current;
    const current = root?.querySelector<HTMLElement>('.sidebar-link.active') ?? root?.querySelector<HTMLElement>('.sidebar-link');
    current?.focus();
    const onKey = (e: KeyboardEvent) => {
      // A dialog over the page answers its own keys.
      if (!root || document.querySelector('.modal')) return;
      if (e.key === 'Escape') {
        e.preventDefault();
        closeRef.current?.();
        return;
      }
      keepTabInside(e, root);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  const classes = ['sidebar', collapsed ? 'sidebar--collapsed' : '', drawer ? 'sidebar--drawer' : '', open ? 'sidebar--open' : ''].filter(Boolean).join(' ');
  return (
    <aside ref={ref} id={SIDEBAR_ID} className={classes} aria-label="Sidebar" hidden={drawer ? !open : undefined}>
      <div className="sidebar-top">
        <TenantBrand compact={collapsed} />
        {drawer ? (
          <button type="button" className="icon-button sidebar-close" onClick={drawer.onClose} aria-label="Close menu">
            <CloseIcon />
          </button>
        ) : (
          <button
            type="button"
            className="icon-button sidebar-toggle"
            onClick={onToggle}
            aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
            aria-expanded={!collapsed}
          >
            {collapsed ? <ChevronRightIcon /> : <ChevronLeftIcon />}
          </button>
        )}
      </div>
      <nav className="sidebar-nav" aria-label="Main">
        {SECTIONS.map((section) => {
          const links = section.links.filter((l) => hasPermission(user, l.permission));
          if (links.length === 0) return null;
          return (
            <div className="sidebar-section" key={section.section}>
              <div className={collapsed ? 'visually-hidden' : 'sidebar-section-title'}>{section.section}</div>
              <ul>
                {links.map((l) => (
                  <li key={l.path}>
                    <NavLink to={l.path} className="sidebar-link" title={collapsed ? l.label : undefined} onClick={drawer?.onClose}>
                      <span className="sidebar-icon" aria-hidden="true">
                        {monogram(l.label)}
                      </span>
                      <span className={collapsed ? 'visually-hidden' : 'sidebar-label'}>{l.label}</span>
                    </NavLink>
                  </li>
                ))}
              </ul>
            </div>
          );
        })}
      </nav>
    </aside>
  );
}

import { NavLink } from 'react-router';
import { useApp } from '../app/AppContext';
import { SECTIONS } from '../app/navigation';
import { hasPermission } from '../lib/permissions';
import { ChevronLeftIcon, ChevronRightIcon } from './icons';
import { TenantBrand } from './TenantBrand';

function monogram(label: string): string {
  const words = label.split(/\s+/).filter(Boolean);
  return (words.length > 1 ? words[0][0] + words[1][0] : label.slice(0, 2)).toUpperCase();
}

interface Props {
  collapsed: boolean;
  onToggle: () => void;
}

/** Sidebar lists SECTIONS, filtered by permission; collapsed it shows monograms only. */
export function Sidebar({ collapsed, onToggle }: Props) {
  const { user } = useApp();
  return (
    <aside className={`sidebar${collapsed ? ' sidebar--collapsed' : ''}`} aria-label="Sidebar">
      <div className="sidebar-top">
        <TenantBrand compact={collapsed} />
        <button
          type="button"
          className="icon-button sidebar-toggle"
          onClick={onToggle}
          aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
          aria-expanded={!collapsed}
        >
          {collapsed ? <ChevronRightIcon /> : <ChevronLeftIcon />}
        </button>
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
                    <NavLink to={l.path} className="sidebar-link" title={collapsed ? l.label : undefined}>
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

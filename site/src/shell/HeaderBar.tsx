import { useRef } from 'react';
import { Link } from 'react-router';
import { useApp } from '../app/AppContext';
import { NotificationBell } from './NotificationBell';
import { ThemeToggle } from './ThemeToggle';
import { useSearchShortcut } from './useSearchShortcut';

interface Props {
  title: string;
}

/** HeaderBar: page title, search (Ctrl + /), theme switch, bell and profile link. */
export function HeaderBar({ title }: Props) {
  const { user } = useApp();
  const searchRef = useRef<HTMLInputElement>(null);
  useSearchShortcut(searchRef);
  const initials = ((user?.firstName?.[0] ?? '') + (user?.lastName?.[0] ?? '') || user?.username?.[0] || '?').toUpperCase();

  return (
    <header className="header-bar">
      <h1 className="page-title">{title}</h1>
      <div className="header-actions">
        <input
          ref={searchRef}
          type="search"
          className="header-search"
          placeholder="Search (Ctrl + /)"
          aria-label="Search"
        />
        <ThemeToggle />
        <NotificationBell />
        <Link
          to="/my-profile"
          className="profile-link"
          // The accessible name starts with the name shown (WCAG 2.5.3: speech users say what they see).
          aria-label={user?.username ? `${user.username}, My Profile` : 'My Profile'}
          title="My Profile"
        >
          <span className="avatar" aria-hidden="true">
            {initials}
          </span>
          <span className="profile-name">{user?.username}</span>
        </Link>
      </div>
    </header>
  );
}

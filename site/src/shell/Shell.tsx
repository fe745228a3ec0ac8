import { useCallback, useEffect, useRef, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useApp } from '../app/AppContext';
import { Footer } from './Footer';
import { HeaderBar } from './HeaderBar';
import { Sidebar, SIDEBAR_ID } from './Sidebar';
import { DRAWER_QUERY, useMediaQuery } from './useMediaQuery';
import { usePageTitle } from './usePageTitle';
import { useSidebarCollapsed } from './useSidebarCollapsed';

/**
 * Shell is the signed-in layout: sidebar, header bar, screen, footer. Below a tablet's width the
 * sidebar is a drawer the header's menu button opens; while it is open the rest of the page is
 * inert, and closing it gives focus back to the button.
 */
export function Shell() {
  const { tenant } = useApp();
  const [collapsed, toggle] = useSidebarCollapsed();
  const title = usePageTitle(tenant?.name ?? '');
  const narrow = useMediaQuery(DRAWER_QUERY);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const closeDrawer = useCallback(() => {
    setDrawerOpen(false);
    // After the page stops being inert, so the button can take focus.
    requestAnimationFrame(() => menuButton.current?.focus());
  }, []);
  const { pathname } = useLocation();
  // A screen chosen elsewhere (the palette, a link), or a screen grown wide: the drawer closes.
  useEffect(() => setDrawerOpen(false), [pathname, narrow]);
  const drawer = narrow ? { open: drawerOpen, onClose: closeDrawer } : undefined;
  return (
    <div className={`shell${collapsed && !narrow ? ' shell--collapsed' : ''}${narrow ? ' shell--narrow' : ''}`}>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Sidebar collapsed={collapsed} onToggle={toggle} drawer={drawer} />
      {drawer?.open && <div className="drawer-backdrop" onClick={closeDrawer} aria-hidden="true" />}
      <div className="shell-main" inert={drawer?.open || undefined}>
        <HeaderBar
          title={title}
          menu={narrow ? { open: drawerOpen, onOpen: () => setDrawerOpen(true), controls: SIDEBAR_ID, ref: menuButton } : undefined}
        />
        <main id="main" className="content" tabIndex={-1}>
          <Outlet />
        </main>
        <Footer />
      </div>
    </div>
  );
}

import { Outlet } from 'react-router';
import { useApp } from '../app/AppContext';
import { Footer } from './Footer';
import { HeaderBar } from './HeaderBar';
import { Sidebar } from './Sidebar';
import { usePageTitle } from './usePageTitle';
import { useSidebarCollapsed } from './useSidebarCollapsed';

/** Shell is the signed-in layout: sidebar, header bar, screen, footer. */
export function Shell() {
  const { tenant } = useApp();
  const [collapsed, toggle] = useSidebarCollapsed();
  const title = usePageTitle(tenant?.name ?? '');
  return (
    <div className={`shell${collapsed ? ' shell--collapsed' : ''}`}>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Sidebar collapsed={collapsed} onToggle={toggle} />
      <div className="shell-main">
        <HeaderBar title={title} />
        <main id="main" className="content" tabIndex={-1}>
          <Outlet />
        </main>
        <Footer />
      </div>
    </div>
  );
}

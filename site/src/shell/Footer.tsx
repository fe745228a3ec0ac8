import { useApp } from '../app/AppContext';

export function Footer() {
  const { tenant } = useApp();
  return (
    <footer className="app-footer">
      © {new Date().getFullYear()} {tenant?.name ?? ''}
    </footer>
  );
}

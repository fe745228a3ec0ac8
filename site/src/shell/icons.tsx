/** Small inline SVG icons (no icon font or emoji dependency). */
type Props = { size?: number };

const svg = (size: number, path: React.ReactNode) => (
  <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
    {path}
  </svg>
);

export const BellIcon = ({ size = 18 }: Props) =>
  svg(size, <><path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" /><path d="M13.7 21a2 2 0 0 1-3.4 0" /></>);

export const MoonIcon = ({ size = 18 }: Props) => svg(size, <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />);

export const SunIcon = ({ size = 18 }: Props) =>
  svg(
    size,
    <>
      <circle cx="12" cy="12" r="4" />
      <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
    </>,
  );

export const ChevronLeftIcon = ({ size = 18 }: Props) => svg(size, <path d="M15 18l-6-6 6-6" />);
export const ChevronRightIcon = ({ size = 18 }: Props) => svg(size, <path d="M9 18l6-6-6-6" />);
export const MenuIcon = ({ size = 22 }: Props) => svg(size, <path d="M3 6h18M3 12h18M3 18h18" />);
export const CloseIcon = ({ size = 20 }: Props) => svg(size, <path d="M18 6L6 18M6 6l12 12" />);
export const SearchIcon = ({ size = 18 }: Props) =>
  svg(
    size,
    <>
      <circle cx="11" cy="11" r="7" />
      <path d="M20 20l-3.5-3.5" />
    </>,
  );

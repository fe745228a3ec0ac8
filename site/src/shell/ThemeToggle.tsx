import { useColorMode } from '../app/colorMode';
import { MoonIcon, SunIcon } from './icons';

/** ThemeToggle switches light/dark; the choice is saved by ColorModeProvider. */
export function ThemeToggle({ className = '' }: { className?: string }) {
  const { colorMode, toggleColorMode } = useColorMode();
  const dark = colorMode === 'dark';
  return (
    <button
      type="button"
      className={`icon-button ${className}`}
      onClick={toggleColorMode}
      aria-label="Toggle dark mode"
      aria-pressed={dark}
      title={dark ? 'Switch to light mode' : 'Switch to dark mode'}
    >
      {dark ? <SunIcon /> : <MoonIcon />}
    </button>
  );
}

import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { readStorage, STORAGE_KEYS, writeStorage } from '../lib/storage';

export type ColorMode = 'light' | 'dark';

interface ColorModeValue {
  colorMode: ColorMode;
  toggleColorMode: () => void;
}

const ColorModeContext = createContext<ColorModeValue>({ colorMode: 'light', toggleColorMode: () => {} });

/** storedColorMode reads the saved appearance; anything unknown means light. */
export function storedColorMode(): ColorMode {
  return readStorage(STORAGE_KEYS.colorMode) === 'dark' ? 'dark' : 'light';
}

export function ColorModeProvider({ children }: { children: ReactNode }) {
  const [colorMode, setColorMode] = useState<ColorMode>(storedColorMode);
  const toggleColorMode = useCallback(() => {
    setColorMode((m) => {
      const next = m === 'dark' ? 'light' : 'dark';
      writeStorage(STORAGE_KEYS.colorMode, next);
      return next;
    });
  }, []);
  const value = useMemo(() => ({ colorMode, toggleColorMode }), [colorMode, toggleColorMode]);
  return <ColorModeContext.Provider value={value}>{children}</ColorModeContext.Provider>;
}

export function useColorMode(): ColorModeValue {
  return useContext(ColorModeContext);
}

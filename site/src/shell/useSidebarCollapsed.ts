import { useCallback, useState } from 'react';
import { readStorage, STORAGE_KEYS, writeStorage } from '../lib/storage';

/** useSidebarCollapsed keeps the sidebar's collapsed state in localStorage. */
export function useSidebarCollapsed(): [boolean, () => void] {
  const [collapsed, setCollapsed] = useState(() => readStorage(STORAGE_KEYS.sidebarCollapsed) === 'true');
  const toggle = useCallback(() => {
    setCollapsed((c) => {
      writeStorage(STORAGE_KEYS.sidebarCollapsed, String(!c));
      return !c;
    });
  }, []);
  return [collapsed, toggle];
}

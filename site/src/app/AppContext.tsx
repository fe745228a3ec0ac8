import { createContext, useContext } from 'react';
import type { StartupState } from './useStartup';

export const AppContext = createContext<StartupState | null>(null);

/** useApp gives screens the start-up state: tenant, user, dashboard stats. */
export function useApp(): StartupState {
  const ctx = useContext(AppContext);
  if (!ctx) throw new Error('useApp outside AppContext');
  return ctx;
}

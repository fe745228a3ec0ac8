import { useState } from 'react';

/**
 * useSelection holds which rows of the page on screen are ticked. Only rows still shown count:
 * rows deleted, or left behind by a page, search or order change, drop out by themselves.
 */
export function useSelection(shown: string[]) {
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());
  const selected = shown.filter((id) => ticked.has(id));

  const toggle = (id: string, on: boolean) =>
    setTicked((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  return {
    selected,
    isSelected: (id: string) => ticked.has(id),
    all: shown.length > 0 && selected.length === shown.length,
    some: selected.length > 0 && selected.length < shown.length,
    toggle,
    /** toggleAll ticks every row on screen, or none. */
    toggleAll: (on: boolean) => setTicked(new Set(on ? shown : [])),
  };
}

import { useEffect, useRef } from 'react';
import { AUTOSAVE_MS } from './workflow';

/**
 * Debouncer runs fn once, delay ms after the last poke; cancel drops a pending run. The editor's
 * autosave: each change pokes it, so a draft is saved once typing pauses.
 */
export class Debouncer {
  private timer: ReturnType<typeof setTimeout> | null = null;
  constructor(
    private readonly delay: number,
    private readonly fn: () => void,
  ) {}
  poke(): void {
    this.cancel();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.fn();
    }, this.delay);
  }
  cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
  get pending(): boolean {
    return this.timer !== null;
  }
}

/**
 * useAutosave saves the draft AUTOSAVE_MS after the last change while active (the editor edits a
 * draft, holds unsaved changes, and no conflict stands): snapshot is what changed.
 */
export function useAutosave(active: boolean, snapshot: string, save: () => void, delay = AUTOSAVE_MS): void {
  const saveRef = useRef(save);
  saveRef.current = save;
  const deb = useRef<Debouncer | null>(null);
  if (!deb.current) deb.current = new Debouncer(delay, () => saveRef.current());
  useEffect(() => {
    if (active) deb.current?.poke();
    else deb.current?.cancel();
  }, [active, snapshot]);
  useEffect(() => () => deb.current?.cancel(), []);
}

import { afterEach, describe, expect, it, vi } from 'vitest';
import { Debouncer } from './autosave';

describe('autosave', () => {
  afterEach(() => vi.useRealTimers());

  it('saves once, two seconds after the last change', () => {
    vi.useFakeTimers();
    const save = vi.fn();
    const d = new Debouncer(2000, save);
    d.poke();
    vi.advanceTimersByTime(1500);
    d.poke();
    vi.advanceTimersByTime(1500);
    expect(save).not.toHaveBeenCalled();
    expect(d.pending).toBe(true);
    vi.advanceTimersByTime(500);
    expect(save).toHaveBeenCalledTimes(1);
    expect(d.pending).toBe(false);
  });

  it('drops a pending save when cancelled', () => {
    vi.useFakeTimers();
    const save = vi.fn();
    const d = new Debouncer(2000, save);
    d.poke();
    d.cancel();
    vi.advanceTimersByTime(5000);
    expect(save).not.toHaveBeenCalled();
  });
});

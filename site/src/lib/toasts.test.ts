import { describe, expect, it } from 'vitest';
import { replacedErrors } from './toasts';

const t = (id: string, type: 'success' | 'error' | 'loading' | 'blank', createdAt: number, visible = true) => ({ id, type, createdAt, visible });

describe('replacedErrors', () => {
  it('an error gives way to any newer outcome', () => {
    expect(replacedErrors([t('e', 'error', 1), t('s', 'success', 2)])).toEqual(['e']);
    expect(replacedErrors([t('e1', 'error', 1), t('e2', 'error', 2)])).toEqual(['e1']);
    expect(replacedErrors([t('e', 'error', 1), t('b', 'blank', 2)])).toEqual(['e']);
  });
  it('keeps the newest error, successes, and errors facing only a loading toast or hidden ones', () => {
    expect(replacedErrors([t('s', 'success', 1), t('e', 'error', 2)])).toEqual([]);
    expect(replacedErrors([t('s1', 'success', 1), t('s2', 'success', 2)])).toEqual([]);
    expect(replacedErrors([t('e', 'error', 1), t('l', 'loading', 2)])).toEqual([]);
    expect(replacedErrors([t('e', 'error', 1), t('s', 'success', 2, false)])).toEqual([]);
    expect(replacedErrors([])).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { resolveTenant, TENANT_STORAGE_KEY, isPlausibleTenantId, type KeyValueStore } from './tenant';

function memoryStore(initial: Record<string, string> = {}): KeyValueStore & { data: Record<string, string> } {
  const data = { ...initial };
  return {
    data,
    getItem: (k) => (k in data ? data[k] : null),
    setItem: (k, v) => {
      data[k] = v;
    },
  };
}

describe('resolveTenant', () => {
  it('uses ?tenant= and remembers it', () => {
    const store = memoryStore();
    expect(resolveTenant('?tenant=acme', store, 'demo')).toBe('acme');
    expect(store.data[TENANT_STORAGE_KEY]).toBe('acme');
  });
  it('URL wins over the remembered tenant', () => {
    const store = memoryStore({ [TENANT_STORAGE_KEY]: 'old' });
    expect(resolveTenant('?foo=1&tenant=new', store, 'demo')).toBe('new');
    expect(store.data[TENANT_STORAGE_KEY]).toBe('new');
  });
  it('falls back to the remembered tenant', () => {
    const store = memoryStore({ [TENANT_STORAGE_KEY]: 'acme' });
    expect(resolveTenant('', store, 'demo')).toBe('acme');
  });
  it('falls back to the default', () => {
    const store = memoryStore();
    expect(resolveTenant('?tenant=', store, 'demo')).toBe('demo');
    expect(store.data[TENANT_STORAGE_KEY]).toBeUndefined();
  });
  it('normalises case', () => {
    expect(resolveTenant('?tenant=ACME', memoryStore(), 'demo')).toBe('acme');
  });
});

describe('isPlausibleTenantId', () => {
  it.each([
    ['demo', true],
    ['nope-nope', true],
    ['a', false],
    ['has#hash', false],
    ['UPPER', false],
  ])('%s → %s', (id, want) => {
    expect(isPlausibleTenantId(id)).toBe(want);
  });
});

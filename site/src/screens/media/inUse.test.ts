import { describe, expect, it } from 'vitest';
import { HttpError } from '../../api/http';
import { inUseMessage, removePath } from './inUse';

describe('a delete of a file in use', () => {
  it('asks with the server message of a 409 in use', () => {
    const msg = 'This file is still used by Open Day (pages). Delete it anyway?';
    expect(inUseMessage(new HttpError(409, msg))).toBe(msg);
  });
  it('asks nothing for other errors', () => {
    expect(inUseMessage(new HttpError(409, 'Someone changed this record.'))).toBeNull();
    expect(inUseMessage(new HttpError(500, 'This file is still used by x'))).toBeNull();
    expect(inUseMessage(new Error('This file is still used by x'))).toBeNull();
  });
  it('forces with ?force=1', () => {
    expect(removePath('01ARZ', false)).toBe('/media/01ARZ');
    expect(removePath('01ARZ', true)).toBe('/media/01ARZ?force=1');
  });
});

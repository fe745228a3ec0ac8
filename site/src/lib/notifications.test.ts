import { describe, expect, it } from 'vitest';
import { bellItems, markReadBody, notificationText, unreadCount } from './notifications';

const n = (id: string, read: unknown) => ({ id, title: id, read });

describe('bellItems', () => {
  it('keeps the first 3 unread in order', () => {
    const res = { result: [n('a', false), n('b', true), n('c', 0), n('d', '0'), n('e', false)], totalCount: 5 };
    expect(bellItems(res).map((x) => x.id)).toEqual(['a', 'c', 'd']);
  });
  it('treats 1 and "true" as read', () => {
    expect(bellItems({ result: [n('a', 1), n('b', 'true'), n('c', undefined)], totalCount: 3 }).map((x) => x.id)).toEqual(['c']);
  });
  it('is empty before the first poll', () => expect(bellItems(undefined)).toEqual([]));
});

describe('unreadCount', () => {
  it("prefers the server's count", () => {
    expect(unreadCount({ result: [n('a', false)], totalCount: 1, facetCount: 7 })).toBe(7);
    expect(unreadCount({ result: [n('a', false), n('b', true)], totalCount: 2 })).toBe(1);
    expect(unreadCount(undefined)).toBe(0);
  });
});

describe('markReadBody', () => {
  it('uses the API spelling', () => {
    expect(markReadBody(['1'])).toEqual({ passcode: 'read', notificaitonIds: ['1'] });
  });
});

describe('notificationText', () => {
  it('falls back to the message', () => {
    expect(notificationText({ id: '1', description: 'D', message: 'M' })).toBe('D');
    expect(notificationText({ id: '1', description: ' ', message: 'M' })).toBe('M');
    expect(notificationText({ id: '1' })).toBe('');
  });
});

import { describe, expect, it } from 'vitest';
import { INVALID_PAGE, goToPageLabel, lastPage, pageItems, parseGoToPage, showingText } from './paginator';

const numbers = (items: ReturnType<typeof pageItems>) => items.filter((i) => typeof i === 'number');

describe('pageItems', () => {
  const cases: Array<{ name: string; current: number; total: number; want: ReturnType<typeof pageItems> }> = [
    { name: 'one page', current: 1, total: 1, want: [1] },
    { name: 'no records still shows page 1', current: 1, total: 0, want: [1] },
    { name: 'exactly ten pages, no ellipsis', current: 5, total: 10, want: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] },
    { name: 'start of many', current: 1, total: 12, want: [1, 2, 3, 4, 5, 6, 7, 8, 9, 'end-ellipsis', 12] },
    { name: 'end of many', current: 12, total: 12, want: [1, 'start-ellipsis', 4, 5, 6, 7, 8, 9, 10, 11, 12] },
    { name: 'middle of many', current: 50, total: 100, want: [1, 'start-ellipsis', 47, 48, 49, 50, 51, 52, 53, 54, 'end-ellipsis', 100] },
    { name: 'current beyond the end is clamped', current: 99, total: 12, want: [1, 'start-ellipsis', 4, 5, 6, 7, 8, 9, 10, 11, 12] },
  ];
  for (const c of cases) {
    it(c.name, () => expect(pageItems(c.current, c.total)).toEqual(c.want));
  }
  it('never shows more than 10 numbered buttons and always includes the current page', () => {
    for (let total = 1; total <= 40; total++) {
      for (let current = 1; current <= total; current++) {
        const items = pageItems(current, total);
        expect(numbers(items).length).toBeLessThanOrEqual(10);
        expect(items).toContain(current);
        expect(items[0]).toBe(1);
        expect(items[items.length - 1]).toBe(total);
      }
    }
  });
});

describe('lastPage', () => {
  it('rounds up and is at least 1', () => {
    expect(lastPage(0, 10)).toBe(1);
    expect(lastPage(60, 5)).toBe(12);
    expect(lastPage(61, 5)).toBe(13);
    expect(lastPage(10, 10)).toBe(1);
  });
});

describe('parseGoToPage', () => {
  const cases: Array<[string, string, number, { page: number } | { error: string }]> = [
    ['first page', '1', 12, { page: 1 }],
    ['last page', '12', 12, { page: 12 }],
    ['spaces are fine', ' 7 ', 12, { page: 7 }],
    ['zero', '0', 12, { error: INVALID_PAGE }],
    ['past the end', '13', 12, { error: INVALID_PAGE }],
    ['negative', '-1', 12, { error: INVALID_PAGE }],
    ['decimal', '2.5', 12, { error: INVALID_PAGE }],
    ['empty', '', 12, { error: INVALID_PAGE }],
    ['letters', 'abc', 12, { error: INVALID_PAGE }],
  ];
  for (const [name, input, last, want] of cases) {
    it(name, () => expect(parseGoToPage(input, last)).toEqual(want));
  }
  it('message and label are verbatim', () => {
    expect(INVALID_PAGE).toBe('Please enter a valid page!');
    expect(goToPageLabel(12)).toBe('Go to Page (1 - 12)');
  });
});

describe('showingText', () => {
  it('first, middle, last partial page and empty', () => {
    expect(showingText(1, 10, 60)).toBe('Showing 1 - 10 of 60');
    expect(showingText(7, 5, 60)).toBe('Showing 31 - 35 of 60');
    expect(showingText(3, 10, 25)).toBe('Showing 21 - 25 of 25');
    expect(showingText(1, 10, 0)).toBe('Showing 0 - 0 of 0');
  });
});

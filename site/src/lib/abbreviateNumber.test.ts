import { describe, expect, it } from 'vitest';
import { abbreviateNumber } from './abbreviateNumber';

describe('abbreviateNumber', () => {
  const cases: Array<[string, number | null | undefined, string]> = [
    ['zero', 0, '0'],
    ['small', 7, '7'],
    ['below a thousand', 999, '999'],
    ['exactly a thousand', 1000, '1K'],
    ['thousands with decimal', 1200, '1.2K'],
    ['thousands rounding', 1249, '1.2K'],
    ['tens of thousands', 45_600, '45.6K'],
    ['millions', 3_400_000, '3.4M'],
    ['carry into next unit', 999_950, '1M'],
    ['billions', 2_500_000_000, '2.5B'],
    ['negative', -1500, '-1.5K'],
    ['null', null, '0'],
    ['undefined', undefined, '0'],
    ['NaN', Number.NaN, '0'],
  ];
  it.each(cases)('%s', (_name, input, want) => {
    expect(abbreviateNumber(input)).toBe(want);
  });
});

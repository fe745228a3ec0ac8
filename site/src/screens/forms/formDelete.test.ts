import { describe, expect, test } from 'vitest';
import { formDeleteText } from './formDelete';

describe('formDeleteText', () => {
  test("says what goes to the trash with the form, then SPEC's question", () => {
    expect(formDeleteText(0)).toBe('Do you really want to delete?');
    expect(formDeleteText(1)).toBe('This form has 1 submission; it goes to the trash with it. Do you really want to delete?');
    expect(formDeleteText(12)).toBe('This form has 12 submissions; they go to the trash with it. Do you really want to delete?');
    expect(formDeleteText(null)).toBe('Any submissions it has go to the trash with it. Do you really want to delete?');
  });
});

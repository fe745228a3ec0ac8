import { describe, expect, it } from 'vitest';
import { altPatch, needsAlt } from './rules';

describe('needsAlt', () => {
  it('asks for alt text of images that have none and are not decorative', () => {
    expect(needsAlt({ mediaType: 'IMAGE' })).toBe(true);
    expect(needsAlt({ mediaType: 'IMAGE', altText: '   ' })).toBe(true);
    expect(needsAlt({ mediaType: 'IMAGE', altText: 'Students in the library' })).toBe(false);
    expect(needsAlt({ mediaType: 'IMAGE', decorative: true })).toBe(false);
    expect(needsAlt({ mediaType: 'DOCUMENT' })).toBe(false);
  });
});

describe('altPatch', () => {
  it('saves the text, tidied, or decorative without text', () => {
    expect(altPatch('  Students\n in the   library ', false)).toEqual({ altText: 'Students in the library', decorative: false });
    expect(altPatch('ignored', true)).toEqual({ altText: '', decorative: true });
  });
  it('refuses an image with neither', () => {
    expect(altPatch('  ', false)).toBeNull();
  });
});

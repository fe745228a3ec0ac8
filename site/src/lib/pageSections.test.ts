import { describe, expect, it } from 'vitest';
import {
  canAddItem,
  isColour,
  MSG_SELECT_TYPE,
  moveByKey,
  moveTo,
  newSection,
  parseConfig,
  pickerColour,
  sectionsPayload,
  type DraftSection,
  type SectionType,
} from './pageSections';

const slider: SectionType = { id: '1', slug: 'slider', name: 'SLIDER', configContainsMultipleItems: true };
const textImage: SectionType = { id: '4', slug: 'text-image', name: 'TEXT_IMAGE', configContainsMultipleItems: false };
const embed: SectionType = { id: '5', slug: 'embed', name: 'EMBED', configContainsMultipleItems: false };

describe('moveTo', () => {
  it('moves without mutating', () => {
    const list = ['a', 'b', 'c', 'd'];
    expect(moveTo(list, 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveTo(list, 3, 0)).toEqual(['d', 'a', 'b', 'c']);
    expect(list).toEqual(['a', 'b', 'c', 'd']);
  });
  it('ignores moves out of range', () => {
    expect(moveTo(['a', 'b'], 0, 5)).toEqual(['a', 'b']);
    expect(moveTo(['a', 'b'], -1, 0)).toEqual(['a', 'b']);
  });
  it('moves by key', () => {
    expect(moveByKey([{ k: 'x' }, { k: 'y' }, { k: 'z' }], (t) => t.k, 'z', 'x').map((t) => t.k)).toEqual(['z', 'x', 'y']);
  });
});

describe('newSection', () => {
  it('needs a type', () => {
    expect(newSection(undefined)).toBe(MSG_SELECT_TYPE);
  });
  it('starts with the defaults', () => {
    const s = newSection(textImage) as DraftSection;
    expect(s.title).toBe('Section');
    expect(s.status).toBe(true);
    expect(s.items[0].textPosition).toBe('LEFT');
    expect((newSection(embed) as DraftSection).items[0].embedType).toBe('OTHER');
  });
});

describe('items', () => {
  it('single-item types hold one item', () => {
    expect(canAddItem(textImage, 0)).toBe(true);
    expect(canAddItem(textImage, 1)).toBe(false);
    expect(canAddItem(slider, 49)).toBe(true);
    expect(canAddItem(slider, 50)).toBe(false);
    expect(canAddItem(undefined, 0)).toBe(false);
  });
  it('parses config text and tolerates junk', () => {
    expect(parseConfig('[{"id":"a","title":"T","position":7}]')[0]).toMatchObject({ id: 'a', title: 'T', position: 1, image: '' });
    expect(parseConfig('{oops')).toEqual([]);
    expect(parseConfig('{"a":1}')).toEqual([]);
    expect(parseConfig('')).toEqual([]);
  });
});

describe('sectionsPayload', () => {
  it('sends the ordered list with positions and only the type fields', () => {
    const a = newSection(slider) as DraftSection;
    const b = { ...(newSection(textImage) as DraftSection), id: 'S1' };
    a.items.push({ ...a.items[0], id: 'second', textPosition: 'RIGHT' });
    const out = sectionsPayload([b, a], [slider, textImage]);
    expect(out.map((s) => s.position)).toEqual([1, 2]);
    expect(out[0].id).toBe('S1');
    expect('id' in out[1]).toBe(false);
    const items = JSON.parse(out[1].config);
    expect(items.map((i: { position: number }) => i.position)).toEqual([1, 2]);
    expect(items[1].textPosition).toBeUndefined();
    expect(JSON.parse(out[0].config)[0].textPosition).toBe('LEFT');
  });
});

describe('colours', () => {
  it('accepts what the server accepts', () => {
    expect(isColour('')).toBe(true);
    expect(isColour('#abc')).toBe(true);
    expect(isColour('#A1B2C3')).toBe(true);
    expect(isColour('red')).toBe(false);
    expect(isColour('#abcd')).toBe(false);
  });
  it('widens short colours for the picker', () => {
    expect(pickerColour('#abc', '#000000')).toBe('#aabbcc');
    expect(pickerColour('', '#ffffff')).toBe('#ffffff');
  });
});

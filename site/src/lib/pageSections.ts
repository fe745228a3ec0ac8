/**
 * Page sections as the editor holds them (SPEC §3): the pure rules of the sections editor —
 * parsing a section's config text, new sections and items with their defaults, reordering and
 * the payload a page save sends.
 */

export interface SectionType {
  id: string;
  slug: string;
  name: string;
  configContainsMultipleItems: boolean;
}

export interface ConfigItem {
  id: string;
  image: string;
  title: string;
  subTitle: string;
  description: string;
  ctaText: string;
  ctaUrl: string;
  position: number;
  textPosition?: 'LEFT' | 'RIGHT';
  embedUrl?: string;
  embedType?: string;
  formId?: string;
}

/** DraftSection is a section being edited; key is stable across saves (id once saved). */
export interface DraftSection {
  key: string;
  id?: string;
  title: string;
  subTitle: string;
  backgroundColor: string;
  fontColor: string;
  pageSectionTypeId: string;
  status: boolean;
  items: ConfigItem[];
}

/** ApiSection is a section as the API returns it. */
export interface ApiSection {
  id: string;
  title: string;
  subTitle?: string;
  backgroundColor?: string;
  fontColor?: string;
  pageSectionTypeId: string;
  status: boolean;
  config: string;
  position: number;
}

export const MSG_SELECT_TYPE = 'Please select section type';
export const DEFAULT_SECTION_TITLE = 'Section';
export const EMBED_TYPES = ['YOUTUBE', 'VIMEO', 'GOOGLE_MAP', 'VIDEO', 'OTHER'] as const;
/** Server bounds, repeated so the editor can say so before a save fails. */
export const MAX_SECTIONS = 38;
export const MAX_ITEMS = 50;

let seq = 0;
/** newKey makes a key unique within the editor's lifetime (not sent as an id). */
export function newKey(prefix: string): string {
  seq += 1;
  return `${prefix}-${Date.now().toString(36)}-${seq}`;
}

/** parseConfig reads a section's config text; anything unreadable is an empty list. */
export function parseConfig(config: string | undefined): ConfigItem[] {
  if (!config) return [];
  try {
    const list: unknown = JSON.parse(config);
    if (!Array.isArray(list)) return [];
    return list
      .filter((x): x is Record<string, unknown> => !!x && typeof x === 'object')
      .map((x, i) => ({
        ...(x as unknown as ConfigItem),
        id: String(x.id ?? newKey('item')),
        image: String(x.image ?? ''),
        title: String(x.title ?? ''),
        subTitle: String(x.subTitle ?? ''),
        description: String(x.description ?? ''),
        ctaText: String(x.ctaText ?? ''),
        ctaUrl: String(x.ctaUrl ?? ''),
        position: i + 1,
      }));
  } catch {
    return [];
  }
}

/** toDraft turns an API section into an editable one (a draft's unsaved section has no id yet: a key of its own). */
export function toDraft(s: ApiSection): DraftSection {
  return {
    key: s.id || newKey('section'),
    id: s.id,
    title: s.title ?? DEFAULT_SECTION_TITLE,
    subTitle: s.subTitle ?? '',
    backgroundColor: s.backgroundColor ?? '',
    fontColor: s.fontColor ?? '',
    pageSectionTypeId: s.pageSectionTypeId,
    status: s.status !== false,
    items: parseConfig(s.config),
  };
}

/** newItem is an empty config item with the defaults of its section type (SPEC §9). */
export function newItem(type: SectionType | undefined): ConfigItem {
  const item: ConfigItem = { id: newKey('item'), image: '', title: '', subTitle: '', description: '', ctaText: '', ctaUrl: '', position: 0 };
  if (type?.slug === 'text-image') item.textPosition = 'LEFT';
  if (type?.slug === 'embed') {
    item.embedUrl = '';
    item.embedType = 'OTHER';
  }
  if (type?.slug === 'form') item.formId = '';
  return item;
}

/** newSection returns a section of the chosen type with one empty item, or the message to show when no type is chosen. */
export function newSection(type: SectionType | undefined): DraftSection | string {
  if (!type) return MSG_SELECT_TYPE;
  return {
    key: newKey('section'),
    title: DEFAULT_SECTION_TITLE,
    subTitle: '',
    backgroundColor: '',
    fontColor: '',
    pageSectionTypeId: type.id,
    status: true,
    items: [newItem(type)],
  };
}

/** canAddItem: single-item types hold at most one item; the others at most MAX_ITEMS. */
export function canAddItem(type: SectionType | undefined, count: number): boolean {
  if (!type) return false;
  return count < (type.configContainsMultipleItems ? MAX_ITEMS : 1);
}

/** moveTo returns a new list with the element at from moved to to (never mutates). */
export function moveTo<T>(list: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return [...list];
  const out = [...list];
  const [moved] = out.splice(from, 1);
  out.splice(to, 0, moved);
  return out;
}

/** moveByKey moves the element whose key is activeKey to where overKey is. */
export function moveByKey<T>(list: readonly T[], keyOf: (t: T) => string, activeKey: string, overKey: string): T[] {
  return moveTo(list, list.findIndex((t) => keyOf(t) === activeKey), list.findIndex((t) => keyOf(t) === overKey));
}

/** itemsFor keeps only the fields of the section's type, positions 1..n in list order. */
export function itemsFor(type: SectionType | undefined, items: readonly ConfigItem[]): ConfigItem[] {
  return items.map((it, i) => {
    const out: ConfigItem = {
      id: it.id,
      image: it.image,
      title: it.title,
      subTitle: it.subTitle,
      description: it.description,
      ctaText: it.ctaText,
      ctaUrl: it.ctaUrl,
      position: i + 1,
    };
    if (type?.slug === 'text-image') out.textPosition = it.textPosition ?? 'LEFT';
    if (type?.slug === 'embed') {
      out.embedUrl = it.embedUrl ?? '';
      out.embedType = it.embedType || 'OTHER';
    }
    if (type?.slug === 'form') out.formId = it.formId ?? '';
    return out;
  });
}

/** sectionsPayload is the pageSections of a page save: the whole ordered list. */
export function sectionsPayload(sections: readonly DraftSection[], types: readonly SectionType[]) {
  return sections.map((s, i) => {
    const type = types.find((t) => t.id === s.pageSectionTypeId);
    return {
      ...(s.id ? { id: s.id } : {}),
      title: s.title,
      subTitle: s.subTitle,
      backgroundColor: s.backgroundColor,
      fontColor: s.fontColor,
      pageSectionTypeId: s.pageSectionTypeId,
      status: s.status,
      position: i + 1,
      config: JSON.stringify(itemsFor(type, s.items)),
    };
  });
}

/** isColour accepts what the server accepts: #rgb or #rrggbb (or nothing). */
export function isColour(value: string): boolean {
  return value === '' || /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(value);
}

/** pickerColour turns #rgb into #rrggbb for <input type="color">, which takes only the long form. */
export function pickerColour(value: string, fallback: string): string {
  if (/^#[0-9a-f]{6}$/i.test(value)) return value.toLowerCase();
  const m = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value);
  return m ? `#${m[1]}${m[1]}${m[2]}${m[2]}${m[3]}${m[3]}`.toLowerCase() : fallback;
}

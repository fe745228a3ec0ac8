/** What the page editor says, in another language, of the parts a translation leaves as they are (issue 35). */
export const PAGE_TRANSLATION_NOTE =
  'The image, the dates and the switches are the same in every language: edit them in the default language. The SEO texts are translated here too.';
export const PAGE_SECTIONS_NOTE = 'Sections are the same in every language for now: edit them in the default language.';
export const PAGE_SEO_NOTE = 'The SEO texts of this language are above, with the page’s other texts; the other SEO settings are the same in every language.';

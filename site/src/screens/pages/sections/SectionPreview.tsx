import { useApp } from '../../../app/AppContext';
import { mediaUrl } from '../../../lib/format';
import type { ConfigItem, DraftSection, SectionType } from '../../../lib/pageSections';
import type { FormOption } from './ItemFields';

interface Props {
  section: DraftSection;
  type: SectionType | undefined;
  forms: FormOption[];
}

function Cta({ item }: { item: ConfigItem }) {
  return item.ctaText ? <span className="preview-cta">{item.ctaText}</span> : null;
}

function Text({ item }: { item: ConfigItem }) {
  return (
    <div className="preview-text">
      {item.title && <h4>{item.title}</h4>}
      {item.subTitle && <p className="preview-sub">{item.subTitle}</p>}
      {item.description && <p>{item.description}</p>}
      <Cta item={item} />
    </div>
  );
}

/**
 * SectionPreview draws a section roughly as the website shows it: its colours, title and items
 * laid out by type. Embeds are not loaded here (the panel frames no third-party pages); a box
 * names what the website will embed.
 */
export function SectionPreview({ section, type, forms }: Props) {
  const { objectUrlPrefix } = useApp();
  const img = (item: ConfigItem) => (item.image ? <img src={mediaUrl(item.image, objectUrlPrefix)} alt={item.title || 'Section image'} /> : null);
  const items = section.items;
  let body;
  switch (type?.slug) {
    case 'slider':
      body = (
        // It scrolls sideways, so keyboard users can focus it and scroll with the arrows (WCAG 2.1.1).
        <div className="preview-slider" tabIndex={0} role="region" aria-label="Slides preview">
          {items.map((it) => (
            <div key={it.id} className="preview-slide">
              {img(it)}
              <Text item={it} />
            </div>
          ))}
        </div>
      );
      break;
    case 'card-row':
      body = (
        <div className="preview-cards">
          {items.map((it) => (
            <div key={it.id} className="preview-card">
              {img(it)}
              <Text item={it} />
            </div>
          ))}
        </div>
      );
      break;
    case 'banner':
      body = items[0] && (
        <div className="preview-banner">
          {img(items[0])}
          <Text item={items[0]} />
        </div>
      );
      break;
    case 'text-image':
      body = items[0] && (
        <div className={`preview-text-image preview-text-image--${(items[0].textPosition ?? 'LEFT').toLowerCase()}`}>
          <Text item={items[0]} />
          {img(items[0])}
        </div>
      );
      break;
    case 'embed':
      body = items[0] && (
        <div className="preview-embed">
          <Text item={items[0]} />
          <div className="preview-embed-box">
            {items[0].embedType ?? 'OTHER'} embed{items[0].embedUrl ? `: ${items[0].embedUrl}` : ''}
          </div>
        </div>
      );
      break;
    case 'form':
      body = items[0] && (
        <div className="preview-form">
          <Text item={items[0]} />
          <div className="preview-embed-box">Form: {forms.find((f) => f.id === items[0].formId)?.name ?? 'none chosen'}</div>
        </div>
      );
      break;
  }
  return (
    <div
      className={`section-preview ${section.status ? '' : 'section-preview--off'}`}
      style={{ background: section.backgroundColor || undefined, color: section.fontColor || undefined }}
      aria-label={`Preview of ${section.title}`}
    >
      <h3>{section.title}</h3>
      {section.subTitle && <p className="preview-sub">{section.subTitle}</p>}
      {body}
    </div>
  );
}

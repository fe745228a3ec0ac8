import { Text } from '@aws-amplify/ui-react';
import type { ReactNode } from 'react';
import { MEDIA_NAME_TRIM_AT, formatBytes, trimText } from '../../lib/format';
import { Thumbnail } from './Thumbnail';
import { AltStatus } from './AltText';
import type { MediaItem } from './rules';
import './media.css';

interface Props {
  items: MediaItem[];
  objectUrlPrefix: string;
  /** actions renders the buttons of one card. */
  actions: (item: MediaItem) => ReactNode;
}

/** MediaThumb shows an image's thumbnail, or the media type for other files. */
export function MediaThumb({ item, objectUrlPrefix }: { item: Pick<MediaItem, 'fileUrl' | 'mediaType' | 'name'>; objectUrlPrefix: string }) {
  if (item.mediaType === 'IMAGE') {
    return <Thumbnail className="media-thumb" fileUrl={item.fileUrl} objectUrlPrefix={objectUrlPrefix} alt={item.name} />;
  }
  const ext = item.name.includes('.') ? item.name.split('.').pop()!.toUpperCase().slice(0, 5) : item.mediaType;
  return (
    <div className={`media-thumb media-thumb--file media-thumb--${item.mediaType.toLowerCase()}`} aria-hidden="true">
      <span>{ext}</span>
      <small>{item.mediaType}</small>
    </div>
  );
}

/** MediaGrid lays out media cards: thumbnail, name trimmed at 40 characters, size in KB/MB. */
export function MediaGrid({ items, objectUrlPrefix, actions }: Props) {
  return (
    <ul className="media-grid" aria-label="Media files">
      {items.map((item) => (
        <li key={item.id} className="media-card" data-media-id={item.id}>
          <MediaThumb item={item} objectUrlPrefix={objectUrlPrefix} />
          <Text className="media-name" title={item.name}>
            {trimText(item.name, MEDIA_NAME_TRIM_AT)}
          </Text>
          <Text className="media-size" fontSize="small" color="font.secondary">
            {formatBytes(item.fileSize)}
          </Text>
          <AltStatus item={item} />
          <div className="media-actions">{actions(item)}</div>
        </li>
      ))}
    </ul>
  );
}

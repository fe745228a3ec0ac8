import { MediaPicker } from '../../../components/media-picker/MediaPicker';
import type { MediaItem } from '../../../components/media-picker/rules';

interface Props {
  value: string;
  onChange: (value: string, picked?: MediaItem) => void;
  accept: 'image' | 'file';
  label: string;
  errorMessage?: string;
}

/** FileField edits an image or file reference ("{ulid}/{name}" in the media library) with the media picker. */
export function FileField(props: Props) {
  return <MediaPicker {...props} />;
}

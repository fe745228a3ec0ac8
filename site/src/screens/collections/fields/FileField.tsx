import { MediaPicker } from '../../../components/media-picker/MediaPicker';

interface Props {
  value: string;
  onChange: (value: string) => void;
  accept: 'image' | 'file';
  label: string;
  errorMessage?: string;
}

/** FileField edits an image or file reference ("{ulid}/{name}" in the media library) with the media picker. */
export function FileField(props: Props) {
  return <MediaPicker {...props} />;
}

import { Loader } from '@aws-amplify/ui-react';
import { lazy, Suspense, useCallback, useId, useMemo, useRef, useState } from 'react';
import type ReactQuillType from 'react-quill-new';
import { useApp } from '../../app/AppContext';
import { useColorMode } from '../../app/colorMode';
import { MediaPickerDialog } from '../../components/media-picker/MediaPicker';
import type { MediaItem } from '../../components/media-picker/rules';
import { mediaUrl } from '../../lib/format';
import { contentRef } from '../../components/media-picker/Thumbnail';

// Quill is large: it loads with the editor, never with the first screen.
const ReactQuill = lazy(async () => {
  await import('react-quill-new/dist/quill.snow.css');
  return import('react-quill-new');
});

/** SPEC §2: bold, italic, underline and strike, plus image insert from the media library. */
const TOOLBAR = [['bold', 'italic', 'underline', 'strike'], ['image'], ['clean']];

interface Props {
  value: string;
  onChange: (html: string) => void;
  errorMessage?: string;
}

/**
 * ContentEditor is the page's rich text: Quill, 600px high, following the light or dark
 * appearance; its image button opens the media library and inserts the chosen image.
 */
export function ContentEditor({ value, onChange, errorMessage }: Props) {
  const id = useId();
  const { colorMode } = useColorMode();
  const { objectUrlPrefix } = useApp();
  const quill = useRef<ReactQuillType | null>(null);
  const [picking, setPicking] = useState(false);
  const selection = useRef(0);

  const openPicker = useCallback(() => {
    const editor = quill.current?.getEditor();
    selection.current = editor?.getSelection(true)?.index ?? editor?.getLength() ?? 0;
    setPicking(true);
  }, []);

  // Built once: Quill re-creates its toolbar whenever modules change.
  const modules = useMemo(() => ({ toolbar: { container: TOOLBAR, handlers: { image: openPicker } } }), [openPicker]);

  const insert = (item: MediaItem) => {
    setPicking(false);
    const editor = quill.current?.getEditor();
    if (!editor) return;
    const at = Math.min(selection.current, editor.getLength());
    editor.insertEmbed(at, 'image', mediaUrl(contentRef(item), objectUrlPrefix), 'user');
    editor.setSelection(at + 1, 0, 'user');
  };

  return (
    <div className={`rich-text-field page-content-editor page-content-editor--${colorMode}`}>
      <label id={id} className="amplify-label">
        Content
      </label>
      <Suspense fallback={<Loader />}>
        <ReactQuill
          ref={quill}
          theme="snow"
          value={value}
          // Only the user's edits count: Quill normalising loaded HTML is not a change.
          onChange={(html, _delta, source) => source === 'user' && onChange(html === '<p><br></p>' ? '' : html)}
          modules={modules}
          formats={['bold', 'italic', 'underline', 'strike', 'image', 'link']}
          aria-labelledby={id}
        />
      </Suspense>
      {errorMessage && <p className="field-error">{errorMessage}</p>}
      {picking && <MediaPickerDialog accept="image" title="Insert an image" onPick={insert} onClose={() => setPicking(false)} />}
    </div>
  );
}

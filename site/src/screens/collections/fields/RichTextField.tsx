import { Loader } from '@aws-amplify/ui-react';
import { lazy, Suspense, useId } from 'react';

// Quill is large; load it only when a form with rich text opens.
const ReactQuill = lazy(async () => {
  await import('react-quill-new/dist/quill.snow.css');
  return import('react-quill-new');
});

const TOOLBAR = [['bold', 'italic', 'underline', 'strike'], [{ list: 'ordered' }, { list: 'bullet' }], ['link'], ['clean']];

interface Props {
  label: string;
  value: string;
  onChange: (html: string) => void;
  errorMessage?: string;
}

/** RichTextField edits HTML with react-quill-new (bold, italic, underline, strike, lists, links). */
export function RichTextField({ label, value, onChange, errorMessage }: Props) {
  const id = useId();
  return (
    <div className="rich-text-field">
      <label id={id} className="amplify-label">
        {label}
      </label>
      <Suspense fallback={<Loader />}>
        <ReactQuill
          theme="snow"
          value={value}
          // Quill reports an empty editor as "<p><br></p>"; keep it empty for the required check.
          onChange={(html) => onChange(html === '<p><br></p>' ? '' : html)}
          modules={{ toolbar: TOOLBAR }}
          aria-labelledby={id}
        />
      </Suspense>
      {errorMessage && <p className="field-error">{errorMessage}</p>}
    </div>
  );
}

import { Button, Flex, Heading, SelectField, Text } from '@aws-amplify/ui-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import useSWR from 'swr';
import { fetchers, keys, type ListResult } from '../../../api/dataProvider';
import { MAX_SECTIONS, moveByKey, newSection, type DraftSection, type SectionType } from '../../../lib/pageSections';
import type { Finding } from '../../../lib/a11y';
import type { FormOption } from './ItemFields';
import { SectionCard } from './SectionCard';
import { SortableList, SortableRow } from './Sortable';

interface Props {
  sections: DraftSection[];
  types: SectionType[];
  errors: Record<string, string>;
  /** findings are the accessibility checker's, by section index. */
  findings?: Record<number, Finding[]>;
  onChange: (next: DraftSection[]) => void;
  onDelete: (key: string) => void;
}

/** errorsOf picks one section's field errors out of a page save's ("pageSections[2].title"). */
function errorsOf(errors: Record<string, string>, index: number): Record<string, string> {
  const prefix = `pageSections[${index}].`;
  return Object.fromEntries(Object.entries(errors).filter(([k]) => k.startsWith(prefix)).map(([k, v]) => [k.slice(prefix.length), v]));
}

/** SectionsEditor lists the page's sections in order: add by type, edit, reorder, delete. */
export function SectionsEditor({ sections, types, errors, findings = {}, onChange, onDelete }: Props) {
  const [typeId, setTypeId] = useState('');
  // SPEC §9: the form choice lists up to 100 forms.
  const formsQuery = useSWR<ListResult<FormOption>>(keys.list('custom-forms', { limit: 100, sort: 'name', order: 'asc' }), fetchers.list<FormOption>, {
    shouldRetryOnError: false,
  });
  const forms = formsQuery.data?.items ?? [];

  const add = () => {
    const next = newSection(types.find((t) => t.id === typeId));
    if (typeof next === 'string') {
      toast.error(next);
      return;
    }
    if (sections.length >= MAX_SECTIONS) {
      toast.error(`A page holds at most ${MAX_SECTIONS} sections.`);
      return;
    }
    onChange([...sections, next]);
    setTypeId('');
    // A form made since the editor opened should be offered too.
    if (types.find((t) => t.id === typeId)?.slug === 'form') void formsQuery.mutate();
  };

  return (
    <div className="sections-editor">
      <Heading level={3}>Page Sections</Heading>
      {sections.length === 0 && <Text color="font.secondary">No sections yet.</Text>}
      <SortableList ids={sections.map((s) => s.key)} onMove={(a, o) => onChange(moveByKey(sections, (s) => s.key, a, o))}>
        {sections.map((s, i) => (
          <SortableRow key={s.key} id={s.key} handleLabel={`Drag section ${i + 1}: ${s.title}`} className="section-row">
            <SectionCard
              section={s}
              index={i}
              type={types.find((t) => t.id === s.pageSectionTypeId)}
              forms={forms}
              errors={errorsOf(errors, i)}
              findings={findings[i]}
              onChange={(next) => onChange(sections.map((x) => (x.key === s.key ? next : x)))}
              onDelete={() => onDelete(s.key)}
            />
          </SortableRow>
        ))}
      </SortableList>
      <Flex alignItems="flex-end" gap="small" marginTop="medium" wrap="wrap">
        <SelectField label="Section type" size="small" value={typeId} onChange={(e) => setTypeId(e.target.value)}>
          <option value="">Select section type</option>
          {types.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </SelectField>
        <Button size="small" variation="primary" onClick={add}>
          Add Section
        </Button>
      </Flex>
    </div>
  );
}

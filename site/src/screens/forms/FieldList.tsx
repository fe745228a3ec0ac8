import { Button, Text } from '@aws-amplify/ui-react';
import { DndContext, KeyboardSensor, PointerSensor, closestCenter, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { dndAccessibility } from '../../lib/dndAccessibility';
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { MAX_FIELDS, moveField, newField, removeField, replaceField, type FormField } from './builder';
import { FieldBlock } from './FieldBlock';

interface Props {
  fields: FormField[];
  setFields: (update: (fields: FormField[]) => FormField[]) => void;
  errors: Record<string, string>;
}

/** FieldList is the builder's field blocks: added, removed and reordered by drag, keyboard or buttons. */
export function FieldList({ fields, setFields, errors }: Props) {
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    setFields((list) => moveField(list, list.findIndex((f) => f.id === active.id), list.findIndex((f) => f.id === over.id)));
  };
  return (
    <div className="field-list">
      {fields.length === 0 && <Text color="font.secondary">No fields yet. Add one to start.</Text>}
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={onDragEnd}
        accessibility={dndAccessibility(
          fields.map((f) => f.id),
          (id) => fields.find((f) => f.id === id)?.label || 'The field',
        )}
      >
        <SortableContext items={fields.map((f) => f.id)} strategy={verticalListSortingStrategy}>
          {fields.map((f, i) => (
            <FieldBlock
              key={f.id}
              field={f}
              index={i}
              count={fields.length}
              allFields={fields}
              errors={errors}
              onChange={(patch) => setFields((list) => replaceField(list, f.id, patch))}
              onRemove={() => setFields((list) => removeField(list, f.id))}
              onMove={(to) => setFields((list) => moveField(list, i, to))}
            />
          ))}
        </SortableContext>
      </DndContext>
      <Button onClick={() => setFields((list) => [...list, newField()])} isDisabled={fields.length >= MAX_FIELDS}>
        + Add Field
      </Button>
    </div>
  );
}

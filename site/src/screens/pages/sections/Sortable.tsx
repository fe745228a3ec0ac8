import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { ReactNode } from 'react';

interface ListProps {
  ids: string[];
  /** onMove gets the dragged id and the id it was dropped on. */
  onMove: (activeId: string, overId: string) => void;
  children: ReactNode;
}

/** SortableList reorders its rows by drag (pointer) and by keyboard (Space, arrows, Space). */
export function SortableList({ ids, onMove, children }: ListProps) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) onMove(String(active.id), String(over.id));
  };
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        {children}
      </SortableContext>
    </DndContext>
  );
}

interface RowProps {
  id: string;
  /** handleLabel names the drag handle for screen readers and tests. */
  handleLabel: string;
  className?: string;
  children: ReactNode;
}

/** SortableRow is one row with a drag handle; only the handle starts a drag, so fields stay usable. */
export function SortableRow({ id, handleLabel, className = '', children }: RowProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id });
  return (
    <div
      ref={setNodeRef}
      className={`sortable-row ${isDragging ? 'sortable-row--dragging' : ''} ${className}`}
      style={{ transform: CSS.Transform.toString(transform), transition }}
    >
      <button type="button" className="drag-handle" ref={setActivatorNodeRef} aria-label={handleLabel} {...attributes} {...listeners}>
        ⋮⋮
      </button>
      <div className="sortable-row-body">{children}</div>
    </div>
  );
}

import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
  type KeyboardCoordinateGetter,
} from '@dnd-kit/core';
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { dndAccessibility } from '../../../lib/dndAccessibility';
import type { ReactNode } from 'react';

/**
 * stepCoordinates moves a keyboard drag one row per arrow press: it centres the dragged row on
 * the centre of the row above or below the one it is over. dnd-kit's default getter moves by the
 * dragged row's own height, which gets stuck among rows of very different heights (a slider
 * section next to a banner).
 */
const stepCoordinates: KeyboardCoordinateGetter = (event, { currentCoordinates, context }) => {
  if (event.code !== 'ArrowUp' && event.code !== 'ArrowDown') return undefined;
  event.preventDefault();
  const { active, over, collisionRect, droppableRects, droppableContainers } = context;
  if (!active || !collisionRect) return undefined;
  const rows = droppableContainers
    .getEnabled()
    .map((c) => ({ id: c.id, rect: droppableRects.get(c.id) }))
    .filter((r) => r.rect)
    .sort((a, b) => a.rect!.top - b.rect!.top);
  const at = rows.findIndex((r) => r.id === (over?.id ?? active.id));
  const target = rows[at + (event.code === 'ArrowUp' ? -1 : 1)];
  if (at < 0 || !target?.rect) return currentCoordinates;
  const dy = target.rect.top + target.rect.height / 2 - (collisionRect.top + collisionRect.height / 2);
  return { x: currentCoordinates.x, y: currentCoordinates.y + dy };
};

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
    // Instant scrolling: a press that must scroll first only scrolls, and the next one moves.
    useSensor(KeyboardSensor, { coordinateGetter: stepCoordinates, scrollBehavior: 'auto' }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) onMove(String(active.id), String(over.id));
  };
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd} accessibility={dndAccessibility(ids, () => 'The item')}>
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

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
import { createContext, useContext, type ReactNode } from 'react';

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

/** Order is what a row's Move up and Move down buttons need: the list's ids and its onMove. */
const Order = createContext<{ ids: string[]; onMove: (activeId: string, overId: string) => void } | null>(null);

/**
 * SortableList reorders its rows by drag (pointer), by keyboard (Space, arrows, Space) and by each
 * row's Move up and Move down buttons (a touch screen's way, where a drag also scrolls).
 */
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
        <Order.Provider value={{ ids, onMove }}>{children}</Order.Provider>
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

/** moveLabel names a row's move button after its drag handle: "Drag section 2: News" → "Move section 2: News up". */
export function moveLabel(handleLabel: string, dir: 'up' | 'down'): string {
  return `${handleLabel.replace(/^Drag /, 'Move ')} ${dir}`;
}

/**
 * SortableRow is one row with a drag handle and Move up / Move down buttons; only the handle
 * starts a drag, so fields stay usable.
 */
export function SortableRow({ id, handleLabel, className = '', children }: RowProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id });
  const order = useContext(Order);
  const at = order ? order.ids.indexOf(id) : -1;
  const move = (by: -1 | 1) => {
    const over = order?.ids[at + by];
    if (order && over !== undefined) order.onMove(id, over);
  };
  return (
    <div
      ref={setNodeRef}
      className={`sortable-row ${isDragging ? 'sortable-row--dragging' : ''} ${className}`}
      style={{ transform: CSS.Transform.toString(transform), transition }}
    >
      <div className="sortable-controls">
        <button type="button" className="drag-handle" ref={setActivatorNodeRef} aria-label={handleLabel} {...attributes} {...listeners}>
          ⋮⋮
        </button>
        {order && order.ids.length > 1 && (
          <>
            <button type="button" className="move-button" onClick={() => move(-1)} disabled={at <= 0} aria-label={moveLabel(handleLabel, 'up')} title="Move up">
              ▲
            </button>
            <button type="button" className="move-button" onClick={() => move(1)} disabled={at >= order.ids.length - 1} aria-label={moveLabel(handleLabel, 'down')} title="Move down">
              ▼
            </button>
          </>
        )}
      </div>
      <div className="sortable-row-body">{children}</div>
    </div>
  );
}

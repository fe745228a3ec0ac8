import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type DragEndEvent,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Badge, Button, Flex } from '@aws-amplify/ui-react';
import { flatten, indent, moveBy, moveItem, outdent, type FlatItem, type MenuItem, type MoveResult } from '../../lib/menuTree';

/** INDENT is how far right (px) an item is dragged to nest it, and how far a child is indented. */
const INDENT = 40;

interface Props {
  tree: MenuItem[];
  selected: string | null;
  pageTitle: (id: string) => string | undefined;
  onMove: (result: MoveResult) => void;
  onSelect: (id: string) => void;
  /** Absent when the user may not delete. */
  onDelete?: (item: MenuItem) => void;
}

/**
 * MenuList is the drag-and-drop nested list (dnd-kit): drag a row up or down to reorder it,
 * right to nest it under the row above, left to move it out. With the keyboard: Space picks a
 * row's handle up, the arrows move it, Space drops it; the Nest and Unnest buttons change level.
 */
export function MenuList({ tree, selected, pageTitle, onMove, onSelect, onDelete }: Props) {
  const rows = flatten(tree);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over, delta }: DragEndEvent) => {
    if (!over) return;
    onMove(moveItem(tree, String(active.id), String(over.id), Math.round(delta.x / INDENT)));
  };
  return (
    // dnd-kit's own announcements here (site.test.mjs follows a keyboard move by their text).
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <SortableContext items={rows.map((r) => r.item.id)} strategy={verticalListSortingStrategy}>
        <ul className="menu-list" aria-label="Menu items">
          {rows.map((row, i) => (
            <Row
              key={row.item.id}
              row={row}
              canNest={i > 0 && row.depth === 0 && row.item.children.length === 0}
              selected={selected === row.item.id}
              target={row.item.type === 'PAGE' ? (pageTitle(row.item.url) ?? 'Page') : row.item.url}
              onMove={(r) => onMove(r)}
              tree={tree}
              onSelect={onSelect}
              onDelete={onDelete}
            />
          ))}
        </ul>
      </SortableContext>
    </DndContext>
  );
}

interface RowProps {
  row: FlatItem;
  tree: MenuItem[];
  canNest: boolean;
  selected: boolean;
  target: string;
  onMove: (r: MoveResult) => void;
  onSelect: (id: string) => void;
  onDelete?: (item: MenuItem) => void;
}

function Row({ row, tree, canNest, selected, target, onMove, onSelect, onDelete }: RowProps) {
  const { item, depth } = row;
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: item.id });
  const style = {
    transform: CSS.Translate.toString(transform),
    transition,
    marginLeft: depth * INDENT,
  };
  return (
    <li
      ref={setNodeRef}
      style={style}
      className={`menu-row${selected ? ' menu-row--selected' : ''}${isDragging ? ' menu-row--dragging' : ''}`}
      data-menu-item={item.label}
      data-depth={depth}
    >
      <button type="button" className="menu-handle" ref={setActivatorNodeRef} aria-label={`Drag ${item.label}`} {...attributes} {...listeners}>
        ⠿
      </button>
      <button type="button" className="menu-label" onClick={() => onSelect(item.id)}>
        {/* Named by what it shows (WCAG 2.5.3), "Edit" said first for screen readers. */}
        <span className="visually-hidden">Edit </span>
        <span className="menu-label-text">{item.label}</span>
        <span className="menu-target">{target}</span>
      </button>
      <Flex gap="xs" alignItems="center" wrap="wrap">
        {item.type === 'PAGE' && <Badge size="small">Page</Badge>}
        {!item.status && (
          <Badge size="small" variation="warning">
            Inactive
          </Badge>
        )}
        <Button size="small" variation="link" onClick={() => onMove(moveBy(tree, item.id, -1))} aria-label={`Move ${item.label} up`}>
          ↑
        </Button>
        <Button size="small" variation="link" onClick={() => onMove(moveBy(tree, item.id, 1))} aria-label={`Move ${item.label} down`}>
          ↓
        </Button>
        {depth === 0 ? (
          <Button size="small" variation="link" onClick={() => onMove(indent(tree, item.id))} isDisabled={!canNest} aria-label={`Nest ${item.label}`}>
            →
          </Button>
        ) : (
          <Button size="small" variation="link" onClick={() => onMove(outdent(tree, item.id))} aria-label={`Unnest ${item.label}`}>
            ←
          </Button>
        )}
        {onDelete && (
          <Button size="small" colorTheme="error" onClick={() => onDelete(item)} aria-label={`Delete ${item.label}`}>
            Delete
          </Button>
        )}
      </Flex>
    </li>
  );
}

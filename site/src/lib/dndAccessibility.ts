import type { Announcements, ScreenReaderInstructions, UniqueIdentifier } from '@dnd-kit/core';

/**
 * dndAccessibility gives dnd-kit's live-region announcements in words (an item's name and its
 * position) rather than its id, and the instructions for the keyboard: Space, arrows, Space.
 */
export function dndAccessibility(ids: UniqueIdentifier[], nameOf: (id: UniqueIdentifier) => string) {
  const where = (id: UniqueIdentifier) => `position ${ids.indexOf(id) + 1} of ${ids.length}`;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${nameOf(active.id)}, at ${where(active.id)}.`,
    onDragOver: ({ active, over }) =>
      over ? `${nameOf(active.id)} is over ${where(over.id)}.` : `${nameOf(active.id)} is no longer over a place in the list.`,
    onDragEnd: ({ active, over }) =>
      over ? `${nameOf(active.id)} dropped at ${where(over.id)}.` : `${nameOf(active.id)} dropped where it was.`,
    onDragCancel: ({ active }) => `Moving ${nameOf(active.id)} cancelled; it is back at ${where(active.id)}.`,
  };
  const screenReaderInstructions: ScreenReaderInstructions = {
    draggable: 'To pick up an item, press Space or Enter. Move it with the Up and Down arrow keys, press Space or Enter again to drop it, or Escape to cancel.',
  };
  return { announcements, screenReaderInstructions };
}

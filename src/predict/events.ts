// What a recorded event is, judged by its data's shape rather than its type number: rrweb numbers
// Meta 4 and FullSnapshot 2, SPEC.md's table numbers Meta 2, and real recordings use either.
// A meta event carries the page (`href`, `width`, `height`); a full snapshot carries the
// serialized DOM tree (`node`). Everything else is an incremental event.

export type EventKind = 'meta' | 'snapshot' | 'other';

export function eventKind(event: { type: number; data: Record<string, unknown> }): EventKind {
  const d = event.data;
  if (typeof d.href === 'string' && typeof d.width === 'number' && typeof d.height === 'number') return 'meta';
  if (typeof d.node === 'object' && d.node !== null && !Array.isArray(d.node)) return 'snapshot';
  return 'other';
}

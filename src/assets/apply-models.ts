// The apply model ids that /v1/chat/completions dispatches to the merge (and /v1/models lists);
// a leaf, so chat can refuse them on /v1/messages without depending on the apply engine.
export const APPLY_MODELS = ['svc-v3-fast', 'svc-v3-large', 'auto'] as const;
export type ApplyModel = (typeof APPLY_MODELS)[number];

export function isApplyModel(model: string): boolean {
  return (APPLY_MODELS as readonly string[]).includes(model);
}

// Link to the apply models (src/api/apply-completions.ts, owned by the apply engineer).
// Loaded lazily so the chat APIs build and run before that module lands.
import { ApiError } from '../errors.js';
import type { RequestContext } from '../http/types.js';

/** The apply model ids of SPEC.md. */
export const APPLY_MODEL_IDS = ['svc-v3-fast', 'svc-v3-large', 'auto'] as const;

interface ApplyModule {
  isApplyModel(model: string): boolean;
  completeApply(body: unknown): Promise<unknown>;
  handleApplyCompletion(ctx: RequestContext, body: unknown): Promise<void>;
}

let loaded: Promise<ApplyModule | null> | undefined;

function applyModule(): Promise<ApplyModule | null> {
  // A variable specifier keeps tsc from requiring the file before it exists.
  const spec = '../api/apply-completions.js';
  loaded ??= (import(spec) as Promise<ApplyModule>).catch(() => null);
  return loaded;
}

export function isApply(model: string): boolean {
  return (APPLY_MODEL_IDS as readonly string[]).includes(model);
}

export async function applyCompletion(body: unknown): Promise<unknown> {
  const m = await applyModule();
  if (!m) throw new ApiError('model_not_ready', 'the apply models are not available in this build');
  return m.completeApply(body);
}

export async function handleApply(ctx: RequestContext, body: unknown): Promise<void> {
  const m = await applyModule();
  if (!m) throw new ApiError('model_not_ready', 'the apply models are not available in this build');
  return m.handleApplyCompletion(ctx, body);
}

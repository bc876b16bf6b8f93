// What the chat APIs need from the server: the loaded models by id. The server's Services object
// carries this field (structural typing: any object with `models` works).
import { apiError } from '../errors.js';
import type { LoadedModel } from '../engine/types.js';

export type ModelRegistry = ReadonlyMap<string, LoadedModel>;

export interface ChatServices {
  models: ModelRegistry;
  /** The apply LLM (--apply-model) that svc-v3-large decodes with; absent or null: merge engine only. */
  readonly applyModel?: LoadedModel | null;
}

export function findChatModel(services: ChatServices, id: string): LoadedModel {
  const m = services.models.get(id);
  if (!m) throw apiError('unknown_model', { model: id });
  return m;
}

// GET /v1/models and /v1/models/:model, the loaded chat models (both wire formats) and the apply
// models (Chat Completions only). Each object carries the fields of both SDKs' model types (OpenAI:
// object/created/owned_by; Anthropic: type/display_name/created_at), and the list those of both
// list pages (Anthropic's has_more/first_id/last_id, with its before_id/after_id/limit paging).
import { apiError } from '../errors.js';
import type { Route } from '../http/types.js';
import { APPLY_MODELS } from '../assets/apply-models.js';
import type { ChatServices } from '../chat/services.js';

const OWNER = 'svc';

export interface ModelObject {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  type: 'model';
  display_name: string;
  /** RFC 3339 form of `created`. */
  created_at: string;
  /** Tokens of context; null where the model has no fixed window (the apply merge engine). */
  context_window: number | null;
  /** Wire formats that serve it. */
  formats: string[];
  kind: 'chat' | 'apply';
}

export function listModels(services: ChatServices, created: number): ModelObject[] {
  const common = (id: string) => ({ id, object: 'model' as const, created, owned_by: OWNER, type: 'model' as const, display_name: id, created_at: new Date(created * 1000).toISOString() });
  const out: ModelObject[] = [];
  for (const [id, m] of services.models) {
    out.push({ ...common(id), context_window: m.info.contextLength, formats: ['chat.completions', 'messages'], kind: 'chat' });
  }
  for (const id of APPLY_MODELS) {
    if (services.models.has(id)) continue;
    out.push({ ...common(id), context_window: null, formats: ['chat.completions'], kind: 'apply' });
  }
  return out;
}

const MAX_MODELS_LIMIT = 1000;

/** One page of the list: all of it unless the client pages the Anthropic way. */
function modelPage(all: ModelObject[], q: URLSearchParams): Record<string, unknown> {
  const limitRaw = q.get('limit');
  const limit = limitRaw === null ? all.length : Number(limitRaw);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_MODELS_LIMIT) throw apiError('field_requirement', { field: 'limit', requirement: `an integer from 1 to ${MAX_MODELS_LIMIT}` }, 'limit');
  const at = (param: string): number | null => {
    const id = q.get(param);
    if (!id) return null;
    const i = all.findIndex((m) => m.id === id);
    if (i < 0) throw apiError('field_requirement', { field: param, requirement: 'the id of a listed model' }, param);
    return i;
  };
  const before = at('before_id');
  const after = at('after_id');
  // before_id: the page that ends right before it; otherwise the one that starts after after_id.
  const end = before ?? all.length;
  const start = before !== null ? Math.max(0, end - limit) : after === null ? 0 : after + 1;
  const data = all.slice(start, Math.min(end, start + limit));
  const hasMore = before !== null ? start > 0 : start + data.length < all.length;
  return { object: 'list', data, has_more: hasMore, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null };
}

export function modelRoutes(services: ChatServices): Route[] {
  const created = Math.floor(Date.now() / 1000);
  return [
    { method: 'GET', path: '/v1/models', handler: (ctx) => ctx.json(200, modelPage(listModels(services, created), ctx.query)) },
    {
      method: 'GET',
      path: '/v1/models/:model',
      handler: (ctx) => {
        const id = ctx.params.model ?? '';
        const m = listModels(services, created).find((x) => x.id === id);
        if (!m) throw apiError('unknown_model', { model: id });
        ctx.json(200, m);
      },
    },
  ];
}

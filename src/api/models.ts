// GET /v1/models and /v1/models/:model in the OpenAI list shape: the loaded chat models (both wire
// formats) and the apply models (Chat Completions only).
import { notFound } from '../errors.js';
import type { Route } from '../http/types.js';
import { APPLY_MODEL_IDS } from '../chat/apply-link.js';
import type { ChatServices } from '../chat/services.js';

const OWNER = 'svc';

export interface ModelObject {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  /** Tokens of context; null where the model has no fixed window (the apply merge engine). */
  context_window: number | null;
  /** Wire formats that serve it. */
  formats: string[];
  kind: 'chat' | 'apply';
}

export function listModels(services: ChatServices, created: number): ModelObject[] {
  const out: ModelObject[] = [];
  for (const [id, m] of services.models) {
    out.push({
      id,
      object: 'model',
      created,
      owned_by: OWNER,
      context_window: m.info.contextLength,
      formats: ['chat.completions', 'messages'],
      kind: 'chat',
    });
  }
  for (const id of APPLY_MODEL_IDS) {
    if (services.models.has(id)) continue;
    out.push({ id, object: 'model', created, owned_by: OWNER, context_window: null, formats: ['chat.completions'], kind: 'apply' });
  }
  return out;
}

export function modelRoutes(services: ChatServices): Route[] {
  const created = Math.floor(Date.now() / 1000);
  return [
    { method: 'GET', path: '/v1/models', handler: (ctx) => ctx.json(200, { object: 'list', data: listModels(services, created) }) },
    {
      method: 'GET',
      path: '/v1/models/:model',
      handler: (ctx) => {
        const id = ctx.params.model ?? '';
        const m = listModels(services, created).find((x) => x.id === id);
        if (!m) throw notFound(`The model '${id}' does not exist`);
        ctx.json(200, m);
      },
    },
  ];
}

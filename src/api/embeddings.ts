// POST /v1/embeddings: OpenAI's embedding list for the inputs (src/embeddings/run.ts).
import type { Route } from '../http/types.js';
import type { ChatServices } from '../chat/services.js';
import { createEmbeddings } from '../embeddings/run.js';

export function embeddingRoutes(services: ChatServices): Route[] {
  return [
    {
      method: 'POST',
      path: '/v1/embeddings',
      handler: async (ctx) => ctx.json(200, await createEmbeddings(services, await ctx.readJson())),
      errorFormat: 'openai',
    },
  ];
}

// The main API's routes: each module contributes `xxxRoutes(services): Route[]`.
// To add a module, import its factory and append one line to the list below.
import { healthRoutes } from '../api/health.js';
import { chatCompletionRoutes } from '../api/chat-completions.js';
import { completionRoutes } from '../api/completions.js';
import { embeddingRoutes } from '../api/embeddings.js';
import { MESSAGES_MAX_BODY, messagesRoutes } from '../api/messages.js';
import { modelRoutes } from '../api/models.js';
import { filesAndBatchesRoutes } from '../api/batches.js';
import type { Route } from '../http/types.js';
import type { Services } from './services.js';

export function mainRoutes(services: Services): Route[] {
  return [
    ...healthRoutes(services),
    ...chatCompletionRoutes(services),
    ...completionRoutes(services),
    ...embeddingRoutes(services),
    // --max-body, when given, is the limit everywhere; otherwise Messages keeps Anthropic's.
    ...messagesRoutes(services, services.config.maxBody ?? MESSAGES_MAX_BODY),
    ...modelRoutes(services),
    ...filesAndBatchesRoutes(services),
    // append route modules here, e.g. ...chatCompletionRoutes(services),
  ];
}

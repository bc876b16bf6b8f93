// Link to the apply models (src/api/apply-completions.ts, owned by the apply engineer): the chat
// routes dispatch those model ids there, and list them in /v1/models.
export { APPLY_MODELS as APPLY_MODEL_IDS, completeApply, handleApplyCompletion as handleApply, isApplyModel as isApply } from '../api/apply-completions.js';

// The Batch resource as it is stored and served (SPEC.md "Batch"): the store keeps these records,
// the batch runner moves them through their statuses.

export type BatchStatus =
  | 'validating'
  | 'in_progress'
  | 'finalizing'
  | 'completed'
  | 'failed'
  | 'expired'
  | 'cancelling'
  | 'cancelled';

export const TERMINAL_STATUSES: ReadonlySet<BatchStatus> = new Set(['completed', 'failed', 'expired', 'cancelled']);

export interface BatchError {
  code: string;
  message: string;
  param: string | null;
  line: number | null;
}

export interface BatchUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export interface BatchObject {
  id: string;
  object: 'batch';
  endpoint: '/v1/chat/completions';
  input_file_id: string;
  completion_window: '24h';
  metadata: Record<string, string> | null;
  created_at: number;
  status: BatchStatus;
  model: string | null;
  output_file_id: string | null;
  error_file_id: string | null;
  in_progress_at: number | null;
  finalizing_at: number | null;
  completed_at: number | null;
  failed_at: number | null;
  expired_at: number | null;
  expires_at: number;
  cancelling_at: number | null;
  cancelled_at: number | null;
  request_counts: { total: number; completed: number; failed: number };
  errors: { object: 'list'; data: BatchError[] } | null;
  usage: BatchUsage | null;
}

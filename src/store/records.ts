// Versioned record encodings. Every record stored in LMDB carries `schemaVersion`; readers go
// through the decode functions, which upgrade older versions or refuse unknown ones, so a data
// dir written by a newer build is never silently misread.
import type { BatchObject } from './batch-record.js';

export const FILE_SCHEMA_VERSION = 1;
export const BATCH_SCHEMA_VERSION = 1;
export const RESULT_SCHEMA_VERSION = 1;

/** `uploading`: content still arriving (or the writer died); invisible to the API, removed at startup. */
export type FileState = 'uploading' | 'ready';

export interface FileRecord {
  schemaVersion: 1;
  id: string;
  state: FileState;
  bytes: number;
  created_at: number;
  filename: string;
  purpose: string;
  chunkSize: number;
  chunkCount: number;
}

export interface BatchRecord {
  schemaVersion: 1;
  batch: BatchObject;
}

/** One executed request of a batch; keyed [batchId, line]. Written once, before it is counted. */
export interface ResultRecord {
  schemaVersion: 1;
  /** `batch_req_…` id of the output line. */
  id: string;
  line: number;
  custom_id: string;
  status_code: number;
  request_id: string;
  body: unknown;
}

export class RecordVersionError extends Error {
  constructor(kind: string, version: unknown) {
    super(`${kind} record has schemaVersion ${String(version)}; this build reads up to ${kind === 'file' ? FILE_SCHEMA_VERSION : kind === 'batch' ? BATCH_SCHEMA_VERSION : RESULT_SCHEMA_VERSION}`);
    this.name = 'RecordVersionError';
  }
}

function versionOf(raw: unknown): unknown {
  return raw !== null && typeof raw === 'object' ? (raw as { schemaVersion?: unknown }).schemaVersion : undefined;
}

export function decodeFileRecord(raw: unknown): FileRecord | undefined {
  if (raw === undefined) return undefined;
  if (versionOf(raw) !== FILE_SCHEMA_VERSION) throw new RecordVersionError('file', versionOf(raw));
  return raw as FileRecord;
}

export function decodeBatchRecord(raw: unknown): BatchRecord | undefined {
  if (raw === undefined) return undefined;
  if (versionOf(raw) !== BATCH_SCHEMA_VERSION) throw new RecordVersionError('batch', versionOf(raw));
  return raw as BatchRecord;
}

export function decodeResultRecord(raw: unknown): ResultRecord | undefined {
  if (raw === undefined) return undefined;
  if (versionOf(raw) !== RESULT_SCHEMA_VERSION) throw new RecordVersionError('result', versionOf(raw));
  return raw as ResultRecord;
}

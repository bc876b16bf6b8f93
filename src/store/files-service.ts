// The Files API (OpenAI's) as a service: upload, list, retrieve, content, delete. It knows
// nothing of HTTP: requests come parsed by the schemas of file-request.ts, answers are the
// API's objects, failures are catalogue errors (src/errors.ts).
import { apiError } from '../errors.js';
import type { CreateFileRequest, ListFilesRequest } from './file-request.js';
import { toFileObject, type FileObject, type FileStore } from './files.js';
import type { FileRecord } from './records.js';

export interface FileList {
  object: 'list';
  data: FileObject[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

export interface FileContent {
  bytes: number;
  /** The content in order, one stored chunk at a time. */
  chunks(): Iterable<Buffer>;
}

export interface FilesServiceOptions {
  /** Largest file a client may upload (413 past it). */
  maxFileBytes: number;
  /** Whether an unfinished batch reads the file (then it cannot be deleted). */
  fileInUse: (id: string) => boolean;
}

export class FilesService {
  constructor(
    private readonly files: FileStore,
    private readonly o: FilesServiceOptions,
  ) {}

  get maxFileBytes(): number {
    return this.o.maxFileBytes;
  }

  /** Where request bodies wait while an upload is read (src/http spools them there). */
  get spoolDir(): string {
    return this.files.spoolDir;
  }

  async create(req: CreateFileRequest, signal?: AbortSignal): Promise<FileObject> {
    if (req.file.bytes > this.o.maxFileBytes) {
      throw apiError('file_too_large', { limit: this.o.maxFileBytes }, 'file');
    }
    return this.files.importUpload(req.file.filename, req.purpose, req.file, signal);
  }

  list(q: ListFilesRequest): FileList {
    const page = this.files.list(q);
    return { object: 'list', data: page.data, first_id: page.data[0]?.id ?? null, last_id: page.data.at(-1)?.id ?? null, has_more: page.has_more };
  }

  retrieve(id: string): FileObject {
    return toFileObject(this.record(id));
  }

  content(id: string): FileContent {
    const rec = this.record(id);
    return { bytes: rec.bytes, chunks: () => this.files.chunks(rec) };
  }

  async remove(id: string): Promise<{ id: string; object: 'file'; deleted: true }> {
    const rec = this.record(id);
    if (this.o.fileInUse(rec.id)) throw apiError('file_in_use', { id: rec.id });
    await this.files.remove(rec.id);
    return { id: rec.id, object: 'file', deleted: true };
  }

  private record(id: string): FileRecord {
    const rec = this.files.record(id);
    if (!rec) throw apiError('unknown_file', { id });
    return rec;
  }
}

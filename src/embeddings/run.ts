// The Embeddings service (POST /v1/embeddings): inputs as text or token ids, embedded together by
// the engine (one job, shared forward passes), pooled per the model's GGUF pooling type and
// L2-normalised; `dimensions` keeps the first components and renormalises (as OpenAI's
// text-embedding-3 models do); float or base64 (little-endian float32) encoding.
import { z } from 'zod';
import { apiError } from '../errors.js';
import { findChatModel, type ChatServices } from '../chat/services.js';
import { parseBody } from '../chat/validate.js';
import { l2NormaliseRows } from '../engine/embed-batcher.js';

export const EMBEDDINGS_LIMITS = { maxInputs: 2048 } as const;

const tokenIds = z.array(z.number().int().min(0)).min(1, 'a token-id input needs at least one token');

export const embeddingRequestSchema = z.object({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.string()).min(1), tokenIds, z.array(tokenIds).min(1)], {
    error: 'input must be a string, an array of strings, an array of token ids, or an array of token-id arrays',
  }),
  encoding_format: z.enum(['float', 'base64']).nullish(),
  dimensions: z.number().int().min(1).nullish(),
  user: z.string().nullish(),
});

export interface EmbeddingList {
  object: 'list';
  data: Array<{ object: 'embedding'; index: number; embedding: number[] | string }>;
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}

type Input = z.output<typeof embeddingRequestSchema>['input'];

function inputsOf(input: Input): Array<string | number[]> {
  if (typeof input === 'string') return [input];
  if (typeof input[0] === 'number') return [input as number[]];
  return input as Array<string | number[]>;
}

/** The vector's float32 bytes (little-endian), base64: what OpenAI's base64 encoding carries. */
function base64Of(v: Float32Array): string {
  const le = new Uint8Array(v.length * 4);
  const view = new DataView(le.buffer);
  for (let i = 0; i < v.length; i++) view.setFloat32(i * 4, v[i]!, true);
  return Buffer.from(le).toString('base64');
}

export async function createEmbeddings(services: ChatServices, body: unknown): Promise<EmbeddingList> {
  const req = parseBody(embeddingRequestSchema, body);
  const model = findChatModel(services, req.model);
  if (!model.embed) throw apiError('model_cannot_embed', { model: req.model });
  const raw = inputsOf(req.input);
  if (raw.length > EMBEDDINGS_LIMITS.maxInputs) throw apiError('too_many_inputs', { max: EMBEDDINGS_LIMITS.maxInputs, items: 'inputs', count: raw.length }, 'input');
  const ctx = model.info.contextLength;
  const inputs: Uint32Array[] = [];
  for (let i = 0; i < raw.length; i++) {
    const x = raw[i]!;
    const param = typeof req.input === 'string' || typeof req.input[0] === 'number' ? 'input' : `input[${i}]`;
    let tokens: Uint32Array;
    if (typeof x === 'string') {
      if (x === '') throw apiError('input_empty', { input: `input ${i}` }, param);
      tokens = await model.tokenize(x, { addSpecial: true });
    } else {
      const bad = x.find((t) => t >= model.info.vocabSize);
      if (bad !== undefined) throw apiError('token_out_of_vocabulary', { token: bad, vocabSize: model.info.vocabSize }, param);
      tokens = Uint32Array.from(x);
    }
    if (tokens.length === 0) throw apiError('input_empty', { input: `input ${i}` }, param);
    if (tokens.length > ctx) {
      throw apiError('input_exceeds_context', { context: ctx, input: `input ${i}`, tokens: tokens.length }, param);
    }
    inputs.push(tokens);
  }
  const r = await model.embed(inputs);
  let dims = r.dims;
  let vectors = r.vectors;
  if (req.dimensions != null) {
    if (req.dimensions > r.dims) throw apiError('field_requirement', { field: 'dimensions', requirement: `at most ${r.dims} for this model` }, 'dimensions');
    if (req.dimensions < r.dims) {
      const cut = new Float32Array(inputs.length * req.dimensions);
      for (let i = 0; i < inputs.length; i++) cut.set(vectors.subarray(i * r.dims, i * r.dims + req.dimensions), i * req.dimensions);
      l2NormaliseRows(cut, req.dimensions);
      vectors = cut;
      dims = req.dimensions;
    }
  }
  const base64 = req.encoding_format === 'base64';
  const tokens = inputs.reduce((a, t) => a + t.length, 0);
  return {
    object: 'list',
    data: inputs.map((_, i) => {
      const v = vectors.subarray(i * dims, (i + 1) * dims);
      return { object: 'embedding' as const, index: i, embedding: base64 ? base64Of(v) : Array.from(v) };
    }),
    model: req.model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}

// llama.cpp as a reference peer, through node-llama-cpp installed in tools/llamacpp (its own
// package, installed on demand by tools/llamacpp/ensure.mjs). Used by the exactness tests and by
// the side-by-side benchmarks; never by the server.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from '../paths.js';

export const LLAMACPP_DIR = join(PACKAGE_ROOT, 'tools', 'llamacpp');

/** One candidate next token with its raw logit. */
export interface PeerTop {
  id: number;
  logit: number;
}

export interface PeerModelOptions {
  /** Default 1: ggml's worker threads spin-wait, and on a shared 2-core machine a second spinning
   *  thread made greedy decoding ~300x slower under load (measured 39 s vs 0.13 s for 64 tokens). */
  threads?: number;
  contextSize?: number;
  batchSize?: number;
}

export interface PeerGreedyResult {
  /** Generated ids (the prompt excluded). */
  ids: number[];
  /** For each generated id: the top-k candidates (raw logits, best first) it was chosen from. */
  steps: PeerTop[][];
}

export interface PeerModel {
  readonly path: string;
  /** llama.cpp tokenization without BOS/EOS (llama_tokenize add_special = false). */
  tokenize(text: string, parseSpecial?: boolean): number[];
  detokenize(ids: readonly number[], special?: boolean): string;
  /** Feeds tokens in one go; returns the top-k next-token candidates after each input token. */
  teacherForce(tokens: readonly number[], topK?: number): Promise<PeerTop[][]>;
  /** Greedy decoding of n tokens after prompt, one token per evaluation. Stops early at EOG only when stopAtEog. */
  greedy(prompt: readonly number[], n: number, opts?: { topK?: number; stopAtEog?: boolean }): Promise<PeerGreedyResult>;
  dispose(): Promise<void>;
}

export interface LlamaCppPeer {
  /** llama.cpp build info as node-llama-cpp reports it. */
  readonly info: { version: string; systemInfo: string };
  loadModel(path: string, opts?: PeerModelOptions): Promise<PeerModel>;
  dispose(): Promise<void>;
}

/* Minimal structural types for the parts of node-llama-cpp used here (it is not a dependency of
 * the main package, so its own types are not importable). */
interface NlcLogitsOut {
  next: { logits?: Map<number, number> };
}
interface NlcSequence {
  controlledEvaluate(input: Array<number | [number, unknown]>): Promise<Array<NlcLogitsOut | undefined>>;
}
interface NlcContext {
  getSequence(): NlcSequence;
  dispose(): Promise<void>;
}
interface NlcModel {
  tokenize(text: string, special?: boolean): number[];
  detokenize(tokens: readonly number[], special?: boolean): string;
  isEogToken?(t: number): boolean;
  createContext(o: Record<string, unknown>): Promise<NlcContext>;
  dispose(): Promise<void>;
}
interface NlcLlama {
  loadModel(o: Record<string, unknown>): Promise<NlcModel>;
  dispose(): Promise<void>;
  systemInfo: string;
  llamaCppRelease?: { release: string };
}

async function importNodeLlamaCpp(): Promise<{ getLlama(o: Record<string, unknown>): Promise<NlcLlama>; LlamaLogLevel: Record<string, string> }> {
  const ensure = (await import(pathToFileURL(join(LLAMACPP_DIR, 'ensure.mjs')).href)) as { ensureLlamaCpp(): Promise<{ dir: string }> };
  const { dir } = await ensure.ensureLlamaCpp();
  return import(pathToFileURL(join(dir, 'node-llama-cpp', 'dist', 'index.js')).href);
}

function topOf(map: Map<number, number> | undefined, k: number): PeerTop[] {
  if (!map) throw new Error('llama.cpp returned no logits');
  const out: PeerTop[] = [];
  for (const [id, logit] of map) {
    out.push({ id, logit });
  }
  out.sort((a, b) => b.logit - a.logit || a.id - b.id);
  return out.slice(0, k);
}

/** Loads llama.cpp (CPU prebuilt, never builds from source), installing node-llama-cpp if needed. */
export async function loadLlamaCpp(): Promise<LlamaCppPeer> {
  const nlc = await importNodeLlamaCpp();
  const llama = await nlc.getLlama({ gpu: false, build: 'never', logLevel: nlc.LlamaLogLevel['error'] ?? 'error', progressLogs: false });
  return {
    info: { version: llama.llamaCppRelease?.release ?? 'unknown', systemInfo: llama.systemInfo },
    async loadModel(path, opts = {}) {
      const model = await llama.loadModel({ modelPath: path, gpuLayers: 0, useMmap: true });
      const contexts: NlcContext[] = [];
      const newSequence = async (len: number): Promise<NlcSequence> => {
        const ctx = await model.createContext({
          contextSize: Math.max(opts.contextSize ?? 0, len + 8),
          batchSize: opts.batchSize ?? Math.min(512, len + 8),
          threads: opts.threads ?? 1,
          sequences: 1,
        });
        contexts.push(ctx);
        return ctx.getSequence();
      };
      const logitsReq = (k: number) => ({ generateNext: { logits: { filter: { tokens: [], includeTop: k } } } });
      return {
        path,
        tokenize: (text, parseSpecial = false) => Array.from(model.tokenize(text, parseSpecial)),
        detokenize: (ids, special = false) => model.detokenize(ids, special),
        async teacherForce(tokens, topK = 5) {
          const seq = await newSequence(tokens.length);
          const res = await seq.controlledEvaluate(tokens.map((t) => [t, logitsReq(topK)] as [number, unknown]));
          const out: PeerTop[][] = [];
          for (let i = 0; i < tokens.length; i++) out.push(topOf(res[i]?.next.logits, topK));
          await contexts.pop()!.dispose();
          return out;
        },
        async greedy(prompt, n, o = {}) {
          const k = Math.max(2, o.topK ?? 2);
          if (prompt.length === 0) throw new Error('greedy: empty prompt');
          const seq = await newSequence(prompt.length + n);
          const ids: number[] = [];
          const steps: PeerTop[][] = [];
          let input: Array<number | [number, unknown]> = [...prompt.slice(0, -1), [prompt[prompt.length - 1]!, logitsReq(k)]];
          for (let i = 0; i < n; i++) {
            const res = await seq.controlledEvaluate(input);
            const top = topOf(res[input.length - 1]?.next.logits, k);
            const next = top[0]!.id;
            ids.push(next);
            steps.push(top);
            if (o.stopAtEog && model.isEogToken?.(next)) break;
            input = [[next, logitsReq(k)]];
          }
          await contexts.pop()!.dispose();
          return { ids, steps };
        },
        async dispose() {
          for (const c of contexts.splice(0)) await c.dispose();
          await model.dispose();
        },
      };
    },
    dispose: () => llama.dispose(),
  };
}

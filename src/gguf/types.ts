// GGUF v3 constants shared by the writer, the reader and the quantizers.
// Ids follow ggml.h / gguf.md (llama.cpp); ne0 (the first dimension) is the row length.

export const GGUF_MAGIC = 0x46554747; // "GGUF" read as a little-endian u32
export const GGUF_VERSION = 3;
export const GGUF_DEFAULT_ALIGNMENT = 32;

/** Metadata value types (gguf.md). */
export enum GgufValueType {
  UINT8 = 0,
  INT8 = 1,
  UINT16 = 2,
  INT16 = 3,
  UINT32 = 4,
  INT32 = 5,
  FLOAT32 = 6,
  BOOL = 7,
  STRING = 8,
  ARRAY = 9,
  UINT64 = 10,
  INT64 = 11,
  FLOAT64 = 12,
}

/** Tensor element types (ggml_type) that this project reads or writes. */
export enum GgmlType {
  F32 = 0,
  F16 = 1,
  Q4_0 = 2,
  Q4_1 = 3,
  Q5_0 = 6,
  Q5_1 = 7,
  Q8_0 = 8,
  Q2_K = 10,
  Q3_K = 11,
  Q4_K = 12,
  Q5_K = 13,
  Q6_K = 14,
  IQ4_NL = 20,
  IQ4_XS = 23,
  BF16 = 30,
  MXFP4 = 39,
}

export interface BlockLayout {
  /** Elements per block. */
  elems: number;
  /** Bytes per block. */
  bytes: number;
}

export const BLOCK_LAYOUT: Record<GgmlType, BlockLayout> = {
  [GgmlType.F32]: { elems: 1, bytes: 4 },
  [GgmlType.F16]: { elems: 1, bytes: 2 },
  [GgmlType.BF16]: { elems: 1, bytes: 2 },
  [GgmlType.Q4_0]: { elems: 32, bytes: 18 },
  [GgmlType.Q5_0]: { elems: 32, bytes: 22 },
  [GgmlType.Q8_0]: { elems: 32, bytes: 34 },
  [GgmlType.Q4_K]: { elems: 256, bytes: 144 },
  [GgmlType.Q5_K]: { elems: 256, bytes: 176 },
  [GgmlType.Q6_K]: { elems: 256, bytes: 210 },
  [GgmlType.Q4_1]: { elems: 32, bytes: 20 },
  [GgmlType.Q5_1]: { elems: 32, bytes: 24 },
  [GgmlType.Q2_K]: { elems: 256, bytes: 84 },
  [GgmlType.Q3_K]: { elems: 256, bytes: 110 },
  [GgmlType.IQ4_NL]: { elems: 32, bytes: 18 },
  [GgmlType.IQ4_XS]: { elems: 256, bytes: 136 },
  [GgmlType.MXFP4]: { elems: 32, bytes: 17 },
};

export function ggmlTypeName(t: number): string {
  return GgmlType[t] ?? `type${t}`;
}

export function isSupportedType(t: number): t is GgmlType {
  return Object.prototype.hasOwnProperty.call(BLOCK_LAYOUT, t);
}

/** Bytes of one row of ne0 elements; throws when ne0 is not a multiple of the block size. */
export function rowBytes(type: GgmlType, ne0: number): number {
  const b = BLOCK_LAYOUT[type];
  if (ne0 % b.elems !== 0) throw new Error(`${ggmlTypeName(type)} needs rows that are a multiple of ${b.elems}, got ${ne0}`);
  return (ne0 / b.elems) * b.bytes;
}

export function tensorBytes(type: GgmlType, dims: readonly number[]): number {
  const [ne0 = 1, ...rest] = dims;
  return rowBytes(type, ne0) * rest.reduce((a, b) => a * b, 1);
}

/** llama_ftype values for general.file_type. */
export enum LlamaFileType {
  ALL_F32 = 0,
  MOSTLY_F16 = 1,
  MOSTLY_Q4_0 = 2,
  MOSTLY_Q4_1 = 3,
  MOSTLY_Q8_0 = 7,
  MOSTLY_Q5_0 = 8,
  MOSTLY_Q5_1 = 9,
  MOSTLY_Q2_K = 10,
  MOSTLY_Q3_K_S = 11,
  MOSTLY_Q3_K_M = 12,
  MOSTLY_Q3_K_L = 13,
  MOSTLY_Q4_K_M = 15,
  MOSTLY_Q5_K_M = 17,
  MOSTLY_Q6_K = 18,
  MOSTLY_IQ4_NL = 25,
  MOSTLY_IQ4_XS = 30,
  MOSTLY_BF16 = 32,
  MOSTLY_MXFP4_MOE = 38,
}

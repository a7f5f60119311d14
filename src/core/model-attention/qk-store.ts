// Where a run that keeps no n × n keeps what its attention is made from: every layer's queries
// (after any q norm and RoPE) and keys, one head at a time, [n, headDim] float32 each, exactly as the
// attention op read them. In memory here; a caller may inject another store (the host's and the
// CLI's private temp file, src/host/checkpoint-run/qk-file-store.ts), since the core reads no files.

/** The shape of what a store holds: per layer `heads` query heads and `kvHeads` key heads, n × headDim each. */
export interface QkShape {
  readonly layers: number;
  readonly heads: number;
  readonly kvHeads: number;
  readonly headDim: number;
  readonly n: number;
}

/** 'q': a query head (of heads); 'k': a key head (of kvHeads). */
export type QkPart = 'q' | 'k';

export interface QkStore {
  readonly shape: QkShape;
  /** Where the numbers are: in this process's memory, or in a file. */
  readonly kind: 'memory' | 'file';
  /** Keeps a head's n × headDim numbers (written once per head, in any order). */
  write(layer: number, part: QkPart, head: number, data: Float32Array): void;
  /** Rows first … first + rows − 1 of a head, [rows, headDim] (a view the caller does not write, or a copy). */
  read(layer: number, part: QkPart, head: number, first: number, rows: number): Float32Array;
  /** Lets the numbers go (a file store deletes its file); reads after it throw. */
  close(): void;
}

/** Makes a store for a shape (injected where the core must not choose: a file store). */
export type QkStoreFactory = (shape: QkShape) => QkStore;

/** Bytes of q and k a run keeps: layers · n · (heads + kvHeads) · headDim float32. */
export function qkBytes(s: QkShape): number {
  return s.layers * s.n * (s.heads + s.kvHeads) * s.headDim * 4;
}

/** Checks a head's place and rows against the shape (a RangeError names what is outside). */
export function checkQk(s: QkShape, layer: number, part: QkPart, head: number, first: number, rows: number): void {
  const heads = part === 'q' ? s.heads : s.kvHeads;
  if (!(Number.isInteger(layer) && layer >= 0 && layer < s.layers && Number.isInteger(head) && head >= 0 && head < heads)) {
    throw new RangeError(`layer ${layer} ${part} head ${head} is outside ${s.layers} × ${heads}`);
  }
  if (!(Number.isInteger(first) && Number.isInteger(rows) && first >= 0 && rows >= 0 && first + rows <= s.n)) {
    throw new RangeError(`rows ${first} … ${first + rows - 1} are outside the ${s.n} positions`);
  }
}

/** The flat index of a head among a store's: layer-major, a layer's query heads then its key heads. */
export function headSlot(s: QkShape, layer: number, part: QkPart, head: number): number {
  return layer * (s.heads + s.kvHeads) + (part === 'q' ? head : s.heads + head);
}

/** A store in memory: one array per head, so no single array is larger than n × headDim. */
export function memoryQkStore(shape: QkShape): QkStore {
  const slots: (Float32Array | undefined)[] = new Array(shape.layers * (shape.heads + shape.kvHeads));
  let closed = false;
  return {
    shape, kind: 'memory',
    write(layer, part, head, data) {
      checkQk(shape, layer, part, head, 0, shape.n);
      if (data.length !== shape.n * shape.headDim) throw new RangeError(`a head of ${shape.n} × ${shape.headDim} cannot hold ${data.length} numbers`);
      slots[headSlot(shape, layer, part, head)] = data;
    },
    read(layer, part, head, first, rows) {
      if (closed) throw new Error('the kept queries and keys were let go');
      checkQk(shape, layer, part, head, first, rows);
      const data = slots[headSlot(shape, layer, part, head)];
      if (!data) throw new RangeError(`layer ${layer} ${part} head ${head} was not kept`);
      return data.subarray(first * shape.headDim, (first + rows) * shape.headDim);
    },
    close() {
      closed = true;
      slots.fill(undefined);
    },
  };
}

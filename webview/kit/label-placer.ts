// Labels beside points that must not sit on each other (three words at the origin of a quadrant
// plot were unreadable). Each label tries a few spots around its point and takes the first free
// one inside the picture; with none free it is left out (the point's hover still names it). Boxes are kept in a grid
// of buckets, so each check looks at the few labels nearby: linear in the number of labels.

export interface Box { x: number; y: number; w: number; h: number }

const BUCKET = 64;

export class LabelPlacer {
  private readonly buckets = new Map<string, Box[]>();

  /** `bounds`: the area labels must stay inside (a label past the picture's edge was cut off), if any. */
  constructor(private readonly bounds?: Box) {}

  private inside(b: Box): boolean {
    const o = this.bounds;
    return !o || (b.x >= o.x && b.y >= o.y && b.x + b.w <= o.x + o.w && b.y + b.h <= o.y + o.h);
  }

  private keys(b: Box): string[] {
    const out: string[] = [];
    for (let bx = Math.floor(b.x / BUCKET); bx <= Math.floor((b.x + b.w) / BUCKET); bx++) {
      for (let by = Math.floor(b.y / BUCKET); by <= Math.floor((b.y + b.h) / BUCKET); by++) out.push(`${bx},${by}`);
    }
    return out;
  }

  private free(b: Box): boolean {
    for (const k of this.keys(b)) {
      for (const o of this.buckets.get(k) ?? []) {
        if (b.x < o.x + o.w && o.x < b.x + b.w && b.y < o.y + o.h && o.y < b.y + b.h) return false;
      }
    }
    return true;
  }

  /** Marks a box as taken (a point, or a label placed elsewhere). */
  take(b: Box): void {
    for (const k of this.keys(b)) {
      const list = this.buckets.get(k);
      if (list) list.push(b);
      else this.buckets.set(k, [b]);
    }
  }

  /**
   * The first free spot among `spots` (each the text's left end and baseline) for a label
   * `w` × `h`, inside the bounds, taken and returned; undefined when none is.
   */
  place(spots: readonly [number, number][], w: number, h: number): [number, number] | undefined {
    for (const [x, y] of spots) {
      const box = { x, y: y - h * 0.8, w, h };
      if (this.inside(box) && this.free(box)) {
        this.take(box);
        return [x, y];
      }
    }
    return undefined;
  }
}

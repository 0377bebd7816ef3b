// Where the units of a decoded view came from in the view below it: one record per escape, in order. A
// text a target filled with escapes ("%41%41…", tens of millions of them) must not cost a JavaScript object
// or array slot per escape: the records are kept in typed arrays, outside the heap's limit, and a run of
// escapes that each decode to one unit and take the same number of units below is held as one record.

/** Where unit i of the decoded view came from: the first and last units of the view below. */
export type UnitsBelow = [first: number, last: number];

const INITIAL = 16;

export class EscapeRecords {
  /** Units [from, to) of the decoded view came from units [belowFrom, belowTo) of the view below. */
  private from = new Int32Array(INITIAL);
  private to = new Int32Array(INITIAL);
  private belowFrom = new Int32Array(INITIAL);
  private belowTo = new Int32Array(INITIAL);
  /** For a run of one-unit escapes, how many units below each took; 0 where every unit came from the whole escape. */
  private width = new Int32Array(INITIAL);
  length = 0;

  /** The escape at units [belowFrom, belowTo) of the view below decoded to units [from, to). */
  add(from: number, to: number, belowFrom: number, belowTo: number): void {
    const taken = belowTo - belowFrom;
    const last = this.length - 1;
    if (to - from === 1 && last >= 0 && this.width[last] === taken && this.to[last] === from && this.belowTo[last] === belowFrom) {
      this.to[last] = to;
      this.belowTo[last] = belowTo;
      return;
    }
    if (this.length === this.from.length) this.grow();
    const k = this.length++;
    this.from[k] = from;
    this.to[k] = to;
    this.belowFrom[k] = belowFrom;
    this.belowTo[k] = belowTo;
    this.width[k] = to - from === 1 ? taken : 0;
  }

  /** Where unit i of the decoded view came from; a unit between escapes is copied, one for one. */
  unitsBelow(i: number): UnitsBelow {
    const k = this.atOrBefore(i);
    if (k === -1) return [i, i];
    if (i < this.to[k]) {
      const width = this.width[k];
      if (width === 0) return [this.belowFrom[k], this.belowTo[k] - 1];
      const first = this.belowFrom[k] + (i - this.from[k]) * width;
      return [first, first + width - 1];
    }
    const below = this.belowTo[k] + (i - this.to[k]);
    return [below, below];
  }

  /** Each unit of the decoded view that one escape decoded to alone, in order. */
  *singleUnits(): Generator<number> {
    for (let k = 0; k < this.length; k++) if (this.width[k] > 0) for (let i = this.from[k]; i < this.to[k]; i++) yield i;
  }

  /** The last record that starts at or before unit i, or -1 when none does. */
  private atOrBefore(i: number): number {
    let [low, high] = [0, this.length - 1];
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (this.from[mid] <= i) low = mid + 1;
      else high = mid - 1;
    }
    return high;
  }

  private grow(): void {
    const larger = (array: Int32Array) => {
      const copy = new Int32Array(array.length * 2);
      copy.set(array);
      return copy;
    };
    this.from = larger(this.from);
    this.to = larger(this.to);
    this.belowFrom = larger(this.belowFrom);
    this.belowTo = larger(this.belowTo);
    this.width = larger(this.width);
  }
}

/**
 * The search candidates of one schema, prepared once: their distinct lower-cased names in a
 * NameTable, and which name each candidate has. Ranking a query scores each distinct name once and
 * builds only the page asked for, in the specification's order: score, then (optionally) a
 * tie-break, then candidate order.
 */
import { NameTable } from './name-table.js';
import { BELOW_PAGE, scoreNames } from './name-scorer.js';

export interface RankedPage {
  /** Candidate indexes of the page, in result order, and their scores. */
  indexes: number[];
  scores: number[];
  /** Matching candidates in all. */
  total: number;
  /** Per name id: 1 when the name matched. The index's own array: valid until its next rank(). */
  matched: Uint8Array;
}

export class ColumnIndex {
  readonly table: NameTable;
  /** Per candidate: the id of its lower-cased name. */
  private readonly nameOf: Int32Array;
  /** Per name id: how many candidates carry it. */
  private readonly weights: Int32Array;
  /** A candidate's name as written to its name id. */
  private readonly idOfName = new Map<string, number>();
  /** Reused by every rank(): a megabyte of garbage per query costs more than clearing them. */
  private readonly matched: Uint8Array;
  /** Per name id: its page group, -1 between calls. */
  private readonly groupOf: Int32Array;

  constructor(names: readonly string[]) {
    const distinct = new Map<string, number>();
    const first: number[] = [];
    names.forEach((name) => {
      const lower = name.toLowerCase();
      if (!distinct.has(lower)) {
        distinct.set(lower, first.length);
        first.push(first.length);
      }
    });
    this.table = new NameTable([...distinct.keys()]);
    const idOfLower = new Map<string, number>();
    this.table.names.forEach((lower, id) => idOfLower.set(lower, id));
    this.nameOf = new Int32Array(names.length);
    this.weights = new Int32Array(this.table.size);
    this.matched = new Uint8Array(this.table.size);
    this.groupOf = new Int32Array(this.table.size).fill(-1);
    names.forEach((name, c) => {
      const id = idOfLower.get(name.toLowerCase()) as number;
      this.nameOf[c] = id;
      this.weights[id]++;
      this.idOfName.set(name, id);
    });
  }

  /** The name id of a candidate named exactly `name`, if there is one. */
  nameId(name: string): number | undefined {
    return this.idOfName.get(name);
  }

  /**
   * The results [offset, offset + limit) for a lower-cased query. `tieBreak`, given a lower-cased
   * name, orders equal scores (higher first) before candidate order. `parallel: false` keeps the
   * scoring in this thread.
   */
  rank(queryLower: string, offset: number, limit: number, tieBreak?: (nameLower: string) => number, parallel = true): RankedPage {
    const depth = offset + limit;
    const { ids, scores, count } = scoreNames(this.table, queryLower, depth, this.weights, parallel);
    const matched = this.matched.fill(0);
    let total = 0;
    // Scores mostly come in runs (substring hits first), so the level map is consulted only on a change.
    const levelOfScore = new Map<number, number>();
    const levelScore: number[] = [];
    const levelWeight: number[] = [];
    const levelOfK = new Int32Array(count);
    let level = -1;
    for (let k = 0; k < count; k++) {
      const id = ids[k];
      const score = scores[k];
      matched[id] = 1;
      total += this.weights[id];
      if (score === BELOW_PAGE) {
        levelOfK[k] = -1;
        continue;
      }
      if (level < 0 || levelScore[level] !== score) {
        level = levelOfScore.get(score) ?? -1;
        if (level < 0) {
          level = levelScore.length;
          levelOfScore.set(score, level);
          levelScore.push(score);
          levelWeight.push(0);
        }
      }
      levelWeight[level] += this.weights[id];
      levelOfK[k] = level;
    }
    // The score levels the page overlaps; levels wholly before it are counted, not ordered.
    const pageLevel = new Int32Array(levelScore.length).fill(-1);
    const levels: number[] = [];
    let before = 0;
    let at = 0;
    for (const l of levelScore.map((_, i) => i).sort((x, y) => levelScore[y] - levelScore[x])) {
      if (at >= depth) break;
      at += levelWeight[l];
      if (at <= offset) before = at;
      else {
        pageLevel[l] = levels.length;
        levels.push(levelScore[l]);
      }
    }
    const members: number[][] = levels.map(() => []);
    for (let k = 0; k < count; k++) {
      const l = levelOfK[k];
      if (l >= 0 && pageLevel[l] >= 0) members[pageLevel[l]].push(ids[k]);
    }
    // Groups in result order: a level, or with a tie-break a level split by tie-break value.
    const groupOf = this.groupOf;
    const groupWeight: number[] = [];
    const groupScore: number[] = [];
    const addGroup = (names: number[], score: number) => {
      for (const id of names) groupOf[id] = groupWeight.length;
      groupWeight.push(names.reduce((w, id) => w + this.weights[id], 0));
      groupScore.push(score);
    };
    members.forEach((names, level) => {
      if (!tieBreak) return addGroup(names, levels[level]);
      const byValue = new Map<number, number[]>();
      for (const id of names) {
        const v = tieBreak(this.table.names[id]);
        const list = byValue.get(v);
        if (list) list.push(id);
        else byValue.set(v, [id]);
      }
      for (const v of [...byValue.keys()].sort((x, y) => y - x)) addGroup(byValue.get(v) as number[], levels[level]);
    });
    // Each group's slice of the page, then one walk in candidate order fills them.
    const start: number[] = [];
    const end: number[] = [];
    at = before;
    for (const w of groupWeight) {
      start.push(Math.max(0, offset - at));
      end.push(Math.max(0, Math.min(w, depth - at)));
      at += w;
    }
    const taken = new Array<number>(groupWeight.length).fill(0);
    const picked: number[][] = groupWeight.map(() => []);
    let open = end.filter((e) => e > 0).length;
    for (let c = 0; c < this.nameOf.length && open > 0; c++) {
      const g = groupOf[this.nameOf[c]];
      if (g < 0 || taken[g] >= end[g]) continue;
      if (taken[g] >= start[g]) picked[g].push(c);
      if (++taken[g] === end[g]) open--;
    }
    const indexes = picked.flat();
    const scoreOf = (c: number) => groupScore[groupOf[this.nameOf[c]]];
    const scored = indexes.map(scoreOf);
    for (const names of members) for (const id of names) groupOf[id] = -1;
    return { indexes, scores: scored, total, matched };
  }
}

import { cut, padEnd, padStart, width } from '../text/width.js';

/**
 * A trace row as columns, in terminal cells (pure): the tree and name take what is left, the
 * source tag and markers have a column, the duration is right-aligned and always shown, and the
 * timing bar gets a column only when the pane is wide enough for the rest.
 */
export interface RowColumns {
  name: number;
  tags: number;
  duration: number;
  bar: number;
  /** The tags and markers in one cell each, so a narrow pane keeps room for names. */
  compact: boolean;
}

export const DURATION_CELLS = 8;
const MIN_NAME = 16;
/** A service cut for its span's name keeps this many cells. */
const SERVICE_MIN = 6;
/** The cells of ": name" the service gives way for. */
const NAME_KEEP = 14;
/** Below this many cells for service and name, a row that cannot show both shows the name alone. */
const NAME_ONLY_BELOW = 16;

export function rowColumns(paneWidth: number, tagsWidth: number, compactTagsWidth = tagsWidth): RowColumns {
  const fixed = tagsWidth + 1 + DURATION_CELLS;
  const bar = Math.min(24, Math.floor(paneWidth / 5));
  const withBar = paneWidth - fixed - 1 - bar;
  if (bar >= 6 && withBar >= MIN_NAME + 8) return { name: withBar, tags: tagsWidth, duration: DURATION_CELLS, bar, compact: false };
  // The bar goes first, then the tags' words: the span's name is what a row is read for.
  if (paneWidth - fixed >= MIN_NAME || compactTagsWidth >= tagsWidth) return { name: Math.max(1, paneWidth - fixed), tags: tagsWidth, duration: DURATION_CELLS, bar: 0, compact: false };
  return { name: Math.max(1, paneWidth - compactTagsWidth - 1 - DURATION_CELLS), tags: compactTagsWidth, duration: DURATION_CELLS, bar: 0, compact: true };
}

/** The markers after the source tag: error, slow, merged with its eBPF twin, orphan, links to other spans (l follows). */
export function flagText(n: { error: boolean; slow: boolean; merged: unknown; orphan: boolean; links?: readonly unknown[] }, compact = false): { error: string; slow: string; merged: string; orphan: string; linked: string } {
  if (compact) return { error: n.error ? '✗' : '', slow: n.slow ? '←' : '', merged: n.merged ? '+' : '', orphan: n.orphan ? '?' : '', linked: n.links?.length ? '↪' : '' };
  return { error: n.error ? ' ✗' : '', slow: n.slow ? ' ← SLOW' : '', merged: n.merged ? ' +eBPF' : '', orphan: n.orphan ? ' orphan' : '', linked: n.links?.length ? ' ↪' : '' };
}

/** The source tag, in one cell when compact ([eBPF] e, [OTLP] o; the span details say it whole). */
export const sourceTag = (source: 'ebpf' | 'otlp', compact = false): string => (compact ? (source === 'ebpf' ? 'e' : 'o') : source === 'ebpf' ? '[eBPF]' : '[OTLP]');

/** The flexible column: tree prefix, service and span name, cut to `cells` with an ellipsis. */
export function nameParts(head: string, service: string, name: string, cells: number): { head: string; service: string; rest: string } {
  const h = cut(head, cells);
  // The service gives way to the span's name, down to a few cells, then wholly in the narrowest
  // room (its colour on the tree's rows above and the span details still tell it).
  const room = Math.max(0, cells - width(h));
  if (room < NAME_ONLY_BELOW && width(`${service}: ${name}`) > room) return { head: h, service: '', rest: padEnd(cut(name, room), room) };
  const sv = cut(service, Math.max(Math.min(width(service), SERVICE_MIN), room - Math.min(width(`: ${name}`), NAME_KEEP)));
  const rest = padEnd(cut(`: ${name}`, Math.max(0, cells - width(h) - width(sv))), Math.max(0, cells - width(h) - width(sv)));
  return { head: h, service: sv, rest };
}

export const duration = (text: string) => padStart(cut(text, DURATION_CELLS), DURATION_CELLS);

/** The tree drawn two cells per level instead of three, for narrow panes. */
export function compactPrefix(prefix: string): string {
  return prefix.replace(/(├─ |└─ |│  |   )/g, (g) => `${g[0]} `);
}

/** One cell per ancestor level, for the narrowest panes, so deep spans keep room for their names. */
export function tightPrefix(prefix: string): string {
  return prefix.replace(/(│  |   )/g, (g) => g[0]).replace(/[├└]─$/, (g) => g[0]);
}

/** Name columns narrower than these draw the tree two cells per level, then one. */
export const COMPACT_TREE_BELOW = 48;
export const TIGHT_TREE_BELOW = 30;

export function treePrefix(prefix: string, nameCells: number): string {
  if (nameCells >= COMPACT_TREE_BELOW) return prefix;
  return nameCells >= TIGHT_TREE_BELOW ? compactPrefix(prefix) : tightPrefix(prefix);
}

const tagWidths = [new WeakMap<object, number>(), new WeakMap<object, number>()];

/** The tag column's width for a whole trace (computed once per trace), so columns hold still while scrolling. */
export function tagsWidth(roots: readonly { error: boolean; slow: boolean; merged: unknown; orphan: boolean; links?: readonly unknown[]; children: unknown[] }[], compact = false): number {
  const cache = tagWidths[compact ? 1 : 0];
  const known = cache.get(roots);
  if (known !== undefined) return known;
  const tag = compact ? 1 : 6;
  let w = tag;
  const stack = [...roots];
  while (stack.length) {
    const n = stack.pop() as (typeof roots)[number];
    const f = flagText(n, compact);
    w = Math.max(w, tag + width(f.error) + width(f.slow) + width(f.merged) + width(f.orphan) + width(f.linked));
    for (const c of n.children) stack.push(c as (typeof roots)[number]);
  }
  cache.set(roots, w);
  return w;
}

/**
 * What the user sent while it could not run yet (the colony still opening, a turn running): kept
 * in the order sent, shown as queued, run one after the other. Nothing typed is lost.
 */
export interface QueuedInput {
  kind: 'ask' | 'command';
  /** The question (empty: the default one) or the `:` line. */
  text: string;
  /** Called once the item has run, or was dropped. */
  done(): void;
}

export class InputQueue {
  private items: QueuedInput[] = [];

  get size(): number {
    return this.items.length;
  }

  push(item: QueuedInput): void {
    this.items.push(item);
  }

  /** The oldest item, taken out. */
  shift(): QueuedInput | undefined {
    return this.items.shift();
  }

  /** Drops everything (Ctrl-C); the items dropped. */
  clear(): QueuedInput[] {
    const dropped = this.items;
    this.items = [];
    for (const i of dropped) i.done();
    return dropped;
  }

  /** How each item reads in the chat (queuedLabel). */
  labels(defaultQuestion: string): string[] {
    return this.items.map((i) => queuedLabel(i, defaultQuestion));
  }
}

/** How an item reads: a question as asked (an empty one as the question Enter sends), a command as typed. */
export const queuedLabel = (i: QueuedInput, defaultQuestion: string): string => (i.kind === 'command' ? i.text : i.text.trim() || defaultQuestion);

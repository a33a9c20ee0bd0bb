import { formatCount, formatWait } from '../../core/format.js';
import type { MessagingDelayRow } from '../store/queries/messaging.js';

/**
 * A consumer falling behind, from its spans (pure): messages wait longer between the producer's send
 * and the consumer's processing. Producer and consumer spans stay as fast as ever, so neither errors
 * nor latency show it; the lag gauge does where one is exported, and this does where none is.
 */
export interface DelayChange {
  hops: number;
  meanMs: number;
  prevMeanMs: number | null;
  maxMs: number;
}

/** Too few matched messages say nothing; a wait under a second is no backlog however much it grew. */
export const MIN_HOPS = 10;
export const MIN_WAIT_MS = 1000;

/** The service's delays from the source that matched the most messages now, and the same source before. */
export function delayChange(service: string, now: readonly MessagingDelayRow[], prev: readonly MessagingDelayRow[]): DelayChange | null {
  const mine = now.filter((r) => r.service === service).sort((a, b) => b.hops - a.hops || a.source.localeCompare(b.source))[0];
  if (!mine) return null;
  const before = prev.find((r) => r.service === service && r.source === mine.source);
  return { hops: mine.hops, meanMs: mine.meanDelayMs, prevMeanMs: before && before.hops >= MIN_HOPS ? before.meanDelayMs : null, maxMs: mine.maxDelayMs };
}

/** The signal for a wait that grew into a backlog: at least a second on average and five times what it was (or new). */
export function backlogSignal(d: DelayChange | null): string | null {
  if (!d || d.hops < MIN_HOPS || d.meanMs < MIN_WAIT_MS) return null;
  if (d.prevMeanMs !== null && d.meanMs < 5 * d.prevMeanMs) return null;
  const was = d.prevMeanMs === null ? '' : ` (was ${formatWait(d.prevMeanMs)})`;
  return `messages wait ${formatWait(d.meanMs)} on average between send and processing${was}, up to ${formatWait(d.maxMs)}, over ${formatCount(d.hops)} messages: the consumer falls behind`;
}

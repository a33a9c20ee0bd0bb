import type { CallError, CallNode } from './calls.js';
import { type Fleet, SLOW_INDEX } from './fleet.js';
import type { Conditions } from './conditions.js';
import type { Random } from '../core/random.js';

/**
 * The incident kinds whose evidence is not in the culprit's own error rate or latency (issue #27):
 * one slow instance among several, a noisy neighbour on a shared node, a config push that makes a
 * dependency answer INVALID_ARGUMENT, a leaf behind its callers' circuit breaker, a callee that went
 * dark, a slow method the SDK barely samples. Each draws from the generator's stream only while its
 * fault is on, so scenarios without these faults are generated exactly as before.
 */

/** Extra milliseconds the instance serving a call takes. */
export function instanceDelayMs(rng: Random, cond: Conditions, fleet: Fleet | null, callee: string, instance: number | undefined): number {
  let ms = 0;
  // stall: a method seconds slow (the kind an SDK sampling 10% barely sees).
  const stall = cond[`stall:${callee}`];
  if (stall) ms += rng.lognormal(1800 * stall, 0.4);
  if (!fleet || instance === undefined) return ms;
  const pod = cond[`slowpod:${callee}`];
  if (pod && instance === SLOW_INDEX) ms += rng.lognormal(240 * pod, 0.25);
  // A noisy neighbour starves every other pod on its node of CPU.
  const noisy = fleet.noisyNode(cond);
  if (noisy && noisy.service !== callee && fleet.instance(callee, instance).node === noisy.node) ms += rng.lognormal(45 * noisy.level, 0.5);
  return ms;
}

/** An answer the callee itself gives: INVALID_ARGUMENT / 400 after a bad config push, 503 from a failing leaf. */
export function calleeError(rng: Random, cond: Conditions, callee: string): CallError | undefined {
  const reject = cond[`reject:${callee}`];
  if (reject && rng.chance(reject)) {
    return { grpcCode: 3, httpStatus: 400, origin: callee, message: `${callee}: invalid argument: rejected by config rev 2025-03-04.2 (field "currency_code" is required)` };
  }
  const cascade = cond[`cascade:${callee}`];
  if (cascade && rng.chance(cascade)) return { grpcCode: 14, httpStatus: 503, origin: callee, message: `${callee}: 503 Service Unavailable: backend pool exhausted` };
  return undefined;
}

/** The share of calls to a failing leaf that its callers' circuit breakers refuse without sending. */
export const BREAKER_OPEN_SHARE = 0.84;

/** A call that never reaches its callee: the callee is gone (dark), or the caller's circuit breaker is open. */
export function shortCircuit(rng: Random, cond: Conditions, callee: string): CallError | undefined {
  if (cond[`dark:${callee}`]) return { grpcCode: 14, httpStatus: 503, origin: callee, message: `${callee}: connection refused: no healthy upstream` };
  if (cond[`cascade:${callee}`] && rng.chance(BREAKER_OPEN_SHARE)) return { grpcCode: 14, httpStatus: 503, origin: callee, message: `circuit breaker open for ${callee}: call not attempted` };
  return undefined;
}

/** Turns a node into a call its callee never saw: the caller's client span fails fast, nothing else is sent. */
export function cutShort(node: CallNode, error: CallError, rng: Random): CallNode {
  node.children = [];
  node.unsent = true;
  delete node.error;
  node.clientEndMs = node.startMs + rng.lognormal(1.2, 0.3);
  node.endMs = node.clientEndMs;
  node.clientError = error;
  return node;
}

/**
 * What a caller reports when a call failed: for the faults above, a message naming the callee (as
 * gRPC and HTTP clients do); otherwise the demo's original wording, which the committed files hold.
 */
export function failureMessage(child: CallNode, original: string): string {
  const err = child.clientError ?? child.error;
  if (!err?.origin) return original;
  const code = err.grpcCode === 3 ? 'InvalidArgument' : 'Unavailable';
  return `rpc error: code = ${code} desc = ${err.message}`;
}

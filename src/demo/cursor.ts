import { type CallError, type CallNode, type Operation, PEERS } from './calls.js';
import { calleeError, cutShort, instanceDelayMs, shortCircuit } from './faults.js';
import type { Fleet } from './fleet.js';
import type { Conditions } from './conditions.js';
import type { Random } from '../core/random.js';

/** Builds one call node: a cursor moves through the callee's own work and its outgoing calls. */
export class Cursor {
  readonly node: CallNode;
  t: number;

  private fault: CallError | undefined;

  constructor(
    readonly rng: Random,
    caller: string | null,
    callee: string,
    op: Operation,
    startMs: number,
    attributes: CallNode['attributes'] = {},
    private readonly cond: Conditions = {},
    private readonly fleet: Fleet | null = null,
  ) {
    const queueMs = rng.lognormal(0.15, 0.6);
    this.node = { caller, callee, op, startMs, endMs: startMs, queueMs, attributes, children: [] };
    const instance = fleet && !PEERS.has(callee) ? fleet.pick(callee, cond) : undefined;
    if (instance !== undefined) this.node.instance = instance;
    this.t = startMs + queueMs;
  }

  work(ms: number): this {
    this.t += ms;
    return this;
  }

  /** An outgoing call that starts now; the cursor waits for it. */
  call(build: (startMs: number) => CallNode): CallNode {
    const child = build(this.t + 0.05);
    this.node.children.push(child);
    this.t = Math.max(this.t, child.clientEndMs ?? child.endMs) + 0.05;
    return child;
  }

  /** Outgoing calls issued together; the cursor waits for the slowest. */
  parallel(builds: ((startMs: number) => CallNode)[]): CallNode[] {
    const start = this.t + 0.05;
    const children = builds.map((b) => b(start));
    this.node.children.push(...children);
    this.t = Math.max(this.t, ...children.map((c) => c.clientEndMs ?? c.endMs)) + 0.05;
    return children;
  }

  /** Random-draw faults on this callee: extra time, and a share of requests failing UNAVAILABLE. */
  private injectFaults(mayFail: boolean): void {
    const slow = this.cond[`slow:${this.node.callee}`];
    if (slow) this.t += this.rng.lognormal(200 * slow, 0.5);
    const fail = this.cond[`fail:${this.node.callee}`];
    if (fail && mayFail && this.rng.chance(fail)) this.fault = { grpcCode: 14, httpStatus: 503, message: `${this.node.callee}: upstream connect error or disconnect/reset before headers` };
    this.t += instanceDelayMs(this.rng, this.cond, this.fleet, this.node.callee, this.node.instance);
    if (mayFail && !this.fault) this.fault = calleeError(this.rng, this.cond, this.node.callee);
  }

  end(error?: CallError, httpStatus?: number): CallNode {
    this.injectFaults(error === undefined);
    this.node.endMs = this.t + 0.1;
    error ??= this.fault;
    if (error) this.node.error = error;
    if (httpStatus !== undefined) this.node.httpStatus = httpStatus;
    const cut = shortCircuit(this.rng, this.cond, this.node.callee);
    return cut ? cutShort(this.node, cut, this.rng) : this.node;
  }
}

export const grpc = (rpcService: string, rpcMethod: string): Operation => ({ protocol: 'grpc', rpcService, rpcMethod });
export const http = (method: string, route: string, beylaRoute: string, path: string): Operation => ({ protocol: 'http', method, route, beylaRoute, path });
export const failed = (e: CallNode) => e.error !== undefined || e.clientError !== undefined;

/** Failure flags of the OpenTelemetry Demo that the scenarios switch on. */
export type Flag =
  | 'paymentFailure' | 'productCatalogFailure' | 'recommendationCacheFailure' | 'kafkaQueueProblems'
  // Faults beyond the OpenTelemetry Demo's flags, for the investigation scenarios.
  | 'cartViewN1' | 'paymentSlow' | 'currencySlow' | 'cartWriteFailure' | 'checkoutBug' | 'adMemoryLeak';

/**
 * Faults the random draws put on any service: `slow:<service>` adds latency, `fail:<service>` fails
 * requests; the kinds of faults.ts: `slowpod:` (one instance slow), `noisy:` (its instance hogs a
 * node), `reject:` (INVALID_ARGUMENT after a config push), `cascade:` (503s behind circuit
 * breakers), `dark:` (sends nothing, answers nothing), `stall:` (seconds slow), `lag:` (a Kafka
 * consumer group falls behind).
 */
export type ServiceFault =
  | `slow:${string}` | `fail:${string}` | `slowpod:${string}` | `noisy:${string}` | `reject:${string}`
  | `cascade:${string}` | `dark:${string}` | `stall:${string}` | `lag:${string}`;

/** What is broken at a given instant: each active flag with its intensity in (0, 1]. */
export type Conditions = Partial<Record<Flag | ServiceFault, number>>;

/**
 * The demo world: the OpenTelemetry Demo (Astronomy Shop) services, their languages and how each is
 * instrumented. Mixed on purpose, as real fleets are: some only eBPF (Beyla), some only an SDK, some
 * both, and one whose eBPF spans lose context propagation.
 */
export type Instrumentation = 'ebpf' | 'sdk' | 'both';

export interface ServiceDef {
  name: string;
  language: string;
  version: string;
  instrumentation: Instrumentation;
  /** eBPF spans of this service start new traces (no context propagation through this hop). */
  losesContext?: boolean;
  /** SDK spans use the older semantic-convention attribute names. */
  legacyNames?: boolean;
  /** Beyla >= 3.23 with the renamed RPC attributes (rpc.system.name, rpc.response.status_code). */
  newBeyla?: boolean;
  /** Baseline resident memory in bytes, for the SDK's process.memory.usage gauge. */
  memoryBytes: number;
}

export const SERVICES: readonly ServiceDef[] = [
  { name: 'frontend-proxy', language: 'cpp', version: '1.31.0', instrumentation: 'sdk', legacyNames: true, memoryBytes: 60e6 },
  { name: 'frontend', language: 'nodejs', version: '2.0.2', instrumentation: 'both', memoryBytes: 210e6 },
  { name: 'ad', language: 'java', version: '2.0.2', instrumentation: 'both', memoryBytes: 380e6 },
  { name: 'cart', language: 'dotnet', version: '2.0.2', instrumentation: 'both', memoryBytes: 160e6 },
  { name: 'checkout', language: 'go', version: '2.0.2', instrumentation: 'both', memoryBytes: 40e6 },
  { name: 'currency', language: 'cpp', version: '2.0.2', instrumentation: 'ebpf', memoryBytes: 20e6 },
  { name: 'email', language: 'ruby', version: '2.0.2', instrumentation: 'ebpf', memoryBytes: 90e6 },
  { name: 'payment', language: 'nodejs', version: '2.0.2', instrumentation: 'both', legacyNames: true, memoryBytes: 120e6 },
  { name: 'product-catalog', language: 'go', version: '2.0.2', instrumentation: 'both', legacyNames: true, memoryBytes: 35e6 },
  { name: 'quote', language: 'php', version: '2.0.2', instrumentation: 'ebpf', losesContext: true, memoryBytes: 50e6 },
  { name: 'recommendation', language: 'python', version: '2.0.2', instrumentation: 'sdk', memoryBytes: 110e6 },
  { name: 'shipping', language: 'rust', version: '2.0.2', instrumentation: 'both', memoryBytes: 25e6 },
  { name: 'accounting', language: 'dotnet', version: '2.0.2', instrumentation: 'sdk', memoryBytes: 150e6 },
  { name: 'fraud-detection', language: 'kotlin', version: '2.0.2', instrumentation: 'sdk', memoryBytes: 300e6 },
  { name: 'image-provider', language: 'cpp', version: '1.27.0', instrumentation: 'ebpf', memoryBytes: 15e6 },
];

export const SERVICE_BY_NAME: ReadonlyMap<string, ServiceDef> = new Map(SERVICES.map((s) => [s.name, s]));

export function service(name: string): ServiceDef {
  const s = SERVICE_BY_NAME.get(name);
  if (!s) throw new Error(`unknown demo service ${name}`);
  return s;
}

export const hasSdk = (s: ServiceDef) => s.instrumentation !== 'ebpf';
export const hasEbpf = (s: ServiceDef) => s.instrumentation !== 'sdk';

/** The products of the Astronomy Shop catalogue; OLJCESPC7Z is the one productCatalogFailure breaks. */
export const PRODUCTS = [
  'OLJCESPC7Z', '66VCHSJNUP', '1YMWWN1N4O', 'L9ECAV7KIM', '2ZYFJ3GM2N', '0PUK6V6EV0', 'LS4PSXUNUM', '9SIQT8TOJO', '6E92ZMYYFZ', 'HQTGWGPNH4',
] as const;

export const BEYLA_BOUNDS_S = [0, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** Older SDK HTTP histograms record milliseconds with these bounds. */
export const SDK_BOUNDS_MS = [0, 5, 10, 25, 50, 75, 100, 250, 500, 750, 1000, 2500, 5000, 7500, 10000];

import { type NameMatch, matchName, nameKey } from './fuzzy.js';

/**
 * What a question names (pure): the colony's services (exact, misspelt, spaced, plural or by a
 * distinctive part: "catalog" for product-catalog), an HTTP route, infrastructure (kafka, redis,
 * postgres ...) and the names that match nothing here ("billing"), which must get an honest "there is
 * no billing service here", never an answer about another service.
 */
export type InfraKind = 'messaging' | 'database' | 'cache';

export interface RouteAsked {
  method: string | null;
  path: string;
  /** Named as a page ("the cart page"): any route with a segment of that word matches. */
  loose?: boolean;
}

export interface Entities {
  services: NameMatch[];
  route: RouteAsked | null;
  /** An operation named as code names it ("GetProduct", "PlaceOrder"). */
  operation: string | null;
  /** Infrastructure words, with what they are ("kafka" -> messaging). */
  infra: { word: string; kind: InfraKind }[];
  /** Names typed as if they were services that match nothing in this colony. */
  absent: string[];
}

export const INFRA_WORDS: Record<string, InfraKind> = {
  kafka: 'messaging', rabbitmq: 'messaging', rabbit: 'messaging', queue: 'messaging', queues: 'messaging', topic: 'messaging',
  broker: 'messaging', pipeline: 'messaging', sqs: 'messaging', nats: 'messaging', pubsub: 'messaging', messaging: 'messaging', consumer: 'messaging', consumers: 'messaging',
  postgres: 'database', postgresql: 'database', mysql: 'database', database: 'database', databases: 'database', db: 'database', sql: 'database',
  mongo: 'database', mongodb: 'database', cassandra: 'database', elasticsearch: 'database', dynamodb: 'database', clickhouse: 'database', oracle: 'database',
  redis: 'cache', valkey: 'cache', memcached: 'cache', cache: 'cache',
};

/** Words that are never a service's name or typo, whatever the colony calls its services. */
const NOT_NAMES = new Set(`a an the is are was were be been am do does did has have had can could should would will shall may might must
i we you it its they them this that these those there here what whats which who whom whose why how when where whether if or and but not no nor
of for on in at to from by with about into over under up down out off than then so too very just only also any all each every some most more less
me my our your their his her fire service services svc microservice microservices server servers app apps api apis system systems stuff thing things
something anything everything nothing one ones someone anyone everyone right now today yesterday tomorrow last past next previous since before after
between during ago minutes minute mins min hours hour hrs hr seconds second secs sec days day week weeks time window
latency latencies slow slower slowest fast faster error errors erroring failing failed failure failures fail broken down up healthy unhealthy health
ok okay fine good bad degraded alive dead working work works traffic throughput requests request rate rates load volume status state
p50 p90 p95 p99 p999 percentile percentiles median average avg mean max min traces trace spans span logs log metrics metric
deploy deploys deployed deployment release released rollout rollback roll back revert config change changes changed flag flags incident incidents
saturated saturation cpu memory mem heap pool pools connections connection lag lagging backlog throttled resources capacity disk
compare comparison versus vs worse better same different normal usual
going wrong happening happen happened issue issues problem problems cause causes root investigate check look show list tell give summarize summary
overview help please thanks hey hi hello guys folks team someone feels feel feeling off weird strange odd
shopping quota currently current route routes endpoint endpoints page pages call calls calling called number count much many long
web site website users user customers customer people everyone product products order orders cart's item items`.split(/\s+/));

/** Words that describe a kind of thing rather than name it: "the paypal api", "the cassandra cluster". */
const KIND_WORDS = new Set(['api', 'apis', 'cluster', 'clusters', 'service', 'services', 'server', 'servers', 'instance', 'instances', 'pod', 'pods', 'node', 'nodes', 'db',
  'database', 'queue', 'queues', 'consumer', 'consumers', 'producer', 'cache', 'broker', 'topic', 'backend', 'integration', 'endpoint', 'job', 'jobs', 'worker', 'workers',
  'pipeline', 'ingress', 'gateway', 'controller', 'proxy', 'layer']);

/** The name in a phrase put where a service goes, generic words dropped; null when nothing specific is left. */
function nameIn(phrase: string): string | null {
  const ws = phrase.split(/\s+/).filter((x) => x && !['the', 'a', 'an', 'our', 'my', 'your'].includes(x));
  while (ws.length > 1 && KIND_WORDS.has(ws[ws.length - 1])) ws.pop();
  if (ws.length === 0 || ws.every((x) => NOT_NAMES.has(x) || KIND_WORDS.has(x))) return null;
  return ws.join(' ');
}

/** Parts of a service name too common to stand for the whole service. */
const GENERIC_PARTS = new Set(['provider', 'service', 'server', 'api', 'app', 'web', 'product', 'detection', 'proxy']);

const HTTP_METHOD = /^(get|post|put|delete|patch|head|options)$/i;
// A path starts a word and has two characters at least after its slash ("y/n" is no route).
const ROUTE = /(?:\b(get|post|put|delete|patch|head|options)\s+)?(?:^|(?<=\s))(\/[A-Za-z0-9_\-[\]{}:.][A-Za-z0-9_\-/[\]{}:.]+)/i;

/** The words of a question, lower case, apostrophes and punctuation dropped (hyphens kept inside words). */
export function words(question: string): string[] {
  return question.toLowerCase().replace(/'s\b/g, '').replace(/[^a-z0-9\-/\s]/g, ' ').split(/\s+/).map((w) => w.replace(/^-+|-+$/g, '')).filter(Boolean);
}

const PAGE = /\b([a-z][a-z-]*?)s? (?:pages?|views?|screens?)\b/;

function routeOf(question: string): RouteAsked | null {
  const m = ROUTE.exec(question);
  const page = PAGE.exec(question.toLowerCase());
  if ((!m || m[2].length < 2) && page && !NOT_NAMES.has(page[1])) return { method: null, path: `/${page[1]}`, loose: true };
  if (!m || m[2].length < 2) return null;
  return { method: m[1] ? m[1].toUpperCase() : null, path: m[2].replace(/[.?!,]+$/, '') };
}

/** The service a word (or a few words run together) means, if any. */
function serviceFor(typed: string, services: readonly string[]): NameMatch | undefined {
  const key = nameKey(typed);
  const m = matchName(typed, services);
  if (m?.exact) return m;
  if (key.length < 2 || NOT_NAMES.has(key)) return undefined;
  if (m) return m;
  // A name with its kind run on, as older deployments spell it: "currencyservice", "cartsvc".
  const bare = key.replace(/(service|svc|srv)$/, '');
  if (bare !== key && bare.length >= 2) {
    const hit = matchName(bare, services);
    if (hit) return { ...hit, typed, exact: false };
  }
  // A short form: the start of one service's name, well short of it ("recs", "reco" for recommendation).
  const stem = key.replace(/s$/, '');
  if (stem.length >= 3 && !NOT_NAMES.has(stem)) {
    const starts = services.filter((s) => nameKey(s).startsWith(stem) && stem.length <= 0.45 * nameKey(s).length);
    if (starts.length === 1) return { name: starts[0], typed, exact: false, distance: 0 };
  }
  // A distinctive part of one service's name: "catalog" for product-catalog, "fraud" for fraud-detection.
  const owners = services.filter((s) => s.toLowerCase().split(/[-_ .]+/).some((p) => p.length >= 4 && !GENERIC_PARTS.has(p) && (p === key || `${p}s` === key)));
  return owners.length === 1 ? { name: owners[0], typed, exact: false, distance: 0 } : undefined;
}

/** Words placed where a service's name goes: "the X service", "is the X Y down?", "X latency", "errors of X?". */
const NAME_SLOTS: RegExp[] = [
  /\b([a-z][a-z0-9-]*)\s+(?:service|svc|microservice|server|backend)\b/g,
  /\b(?:is|are|was|were)\s+(?:the\s+|our\s+|my\s+)?((?:[a-z][a-z0-9-]*\s+){0,2}[a-z][a-z0-9-]*)\s+(?:down|up|healthy|unhealthy|ok|okay|fine|failing|slow|broken|degraded|alive|working|erroring|dead|saturated|lagging|overloaded|on fire|[a-z]+ing)\b/g,
  /\b(?:of|for|on|about|with|from)\s+(?:the\s+)?((?:[a-z][a-z0-9-]*\s+)?[a-z][a-z0-9-]*)\s*[?.!]*$/g,
  /^(?:what'?s up with|whats up with|how'?s|how is|how are|check|look at|status of)\s+(?:the\s+)?([a-z][a-z0-9-]*)/g,
  /^([a-z][a-z0-9-]*)\s+(?:latency|errors?|error rate|p\d{2,3}|status|health|traffic|throughput|down|slow)\b/g,
];

export function entities(question: string, services: readonly string[]): Entities {
  const w = words(question);
  const found: { match: NameMatch; at: number }[] = [];
  const used = new Set<number>();
  // Longest runs first: "product catalog" and "front end" before their single words.
  for (const n of [3, 2, 1]) {
    for (let i = 0; i + n <= w.length; i++) {
      if ([...Array(n).keys()].some((k) => used.has(i + k))) continue;
      const run = w.slice(i, i + n);
      if (run.some((x) => x.startsWith('/'))) continue;
      const m = n === 1 ? serviceFor(run[0], services) : matchName(run.join(' '), services);
      if (!m || (n > 1 && !m.exact)) continue;
      found.push({ match: { ...m, typed: run.join(' ') }, at: i });
      for (let k = 0; k < n; k++) used.add(i + k);
    }
  }
  // "the cart page" is a route the frontend serves, not the cart service.
  const page = routeOf(question);
  if (page?.loose) for (let k = found.length - 1; k >= 0; k--) if (nameKey(found[k].match.typed).startsWith(page.path.slice(1))) found.splice(k, 1);
  const matched = found.sort((a, b) => a.at - b.at).map((f) => f.match).filter((m, i, all) => all.findIndex((x) => x.name === m.name) === i);
  const infra = w.filter((x) => INFRA_WORDS[x] !== undefined).map((word) => ({ word, kind: INFRA_WORDS[word] }));
  const q = question.toLowerCase().replace(/[’']/g, "'").trim();
  const op = /\b((?:[A-Z][a-z0-9]+){2,})\b/.exec(question.replace(/\b(?:[a-z]+\.)?[A-Z]\w*Service\b/g, ''));
  const absent = new Set<string>();
  for (const re of NAME_SLOTS) {
    for (const m of q.matchAll(re)) {
      const cand = nameIn(m[1]);
      if (cand === null || cand === op?.[1].toLowerCase() || NOT_NAMES.has(cand) || INFRA_WORDS[cand] !== undefined || HTTP_METHOD.test(cand) || /^\d/.test(cand)) continue;
      if (cand.split(' ').some((x) => INFRA_WORDS[x] !== undefined && !KIND_WORDS.has(x))) continue;
      if (matched.some((s) => nameKey(s.typed).includes(nameKey(cand)) || nameKey(cand).includes(nameKey(s.typed)))) continue;
      if (serviceFor(cand, services) || cand.split(' ').some((x) => serviceFor(x, services))) continue;
      absent.add(cand);
    }
  }
  return { services: matched, route: page, operation: op ? op[1] : null, infra: infra.filter((x, i) => infra.findIndex((y) => y.word === x.word) === i), absent: [...absent] };
}

/** How a match is stated: "currency (you typed curency)"; an exact name as itself. */
export function stated(m: NameMatch): string {
  return m.exact ? m.name : `${m.name} (you typed ${m.typed})`;
}

/**
 * What kind of answer a question wants (pure): the first line of the answer is shaped by it (a
 * number, a yes/no with the reason, a list, a recommendation).
 */
/** `unknown`: nothing in it reads as a question about the system ("what is the weather like?"). */
export type QuestionKind = 'rollback' | 'compare' | 'saturation' | 'list' | 'verdict' | 'number' | 'diagnosis' | 'status' | 'unknown';

/** Which way a yes/no question leans: "is X healthy?" asks for good news, "is X down?" for bad. */
export type Polarity = 'good' | 'bad';

export interface KindReading {
  kind: QuestionKind;
  /** For a verdict: whether "yes" means healthy (good) or not (bad). */
  polarity: Polarity | null;
}

const ROLLBACK = /\b(roll ?back|rollback|revert|undo the (deploy|release|change)|turn (off|it off)|switch off|disable)\b/;
const COMPARE = /\b(compare[sd]?|comparison|vs\.?|versus|before and after|before\/after|before vs|than (it was|before|usual|normal|yesterday|earlier)|changed? (since|from)|difference)\b/;
const SATURATION = /\b(saturat\w*|cpu|memory|mem|heap|oom\w*|connections?|conn pool|pools?|queues?|lag\w*|backlog\w*|throttl\w*|resources?|disk|capacity|out of|exhaust\w*|full|overload\w*|gc)\b/;
const LIST = /^(which|what|list|show( me)?|name|any)\b.*\b(services|ones|endpoints|routes|operations|apps|components|things|pods|instances)\b|^(which|who)\b|^list\b/;
const VERDICT = /^(is|are|was|were|does|do|did|has|have|can|could|will|any(thing)? (wrong|broken|failing|on fire|off|bad)|any (errors?|failures?|problems?|issues?|timeouts?|5\d\d|4\d\d)|should)\b/;
const NUMBER = /\b(what('?s| is| was| are)?( the)? (p\d{2,3}|latency|error rate|rate|throughput|traffic|rps|qps|percent|number|count|median|average)|how (much|many|fast|slow|long)|p\d{2,3}\b|error rate|requests? per|rps|qps)/;
const DIAGNOSIS = /\b(why|root cause|what('?s| is)? (wrong|broken|happening|going on)|what happened|investigate|explain|cause[sd]?|culprit|blame|who broke)\b/;
const VAGUE = /\b(status|summar\w*|overview|going on|feels?|off|weird|strange|odd|help|up with|what'?s up|sup|anything|everything|health\w*|state|wrong|broken|problems?|issues?|incidents?|alerts?|on fire|latency|errors?|slow\w*|fail\w*|traffic|traces?|deploy\w*|changed?|doing|look(s|ing)?|report|update|sitrep|ok|okay|start\w*|began|begin|when)\b|^\s*\??\s*$/;
const BAD = /\b(backing up|backed up|piling up|backlog\w*|lag\w*|leak\w*|down|failing|fail\w*|broken|slow\w*|degraded|unhealthy|erroring|errors?|dead|saturated|lagging|overloaded|on fire|timing out|timeouts?|problem|issue|wrong|bad|off|worse|crash\w*|5\d\d)\b/;
const GOOD = /\b(healthy|ok|okay|fine|good|alive|working|up|normal|all right|alright|stable|recovered|better)\b/;

export function questionKind(question: string): KindReading {
  const q = question.toLowerCase().replace(/[’']/g, "'").trim();
  if (ROLLBACK.test(q)) return { kind: 'rollback', polarity: null };
  // "payment failing?", "cart ok?": a fragment naming a state and asking is a yes/no question too.
  const verdict = VERDICT.test(q) || (!/^(why|what|how|when|where|which|who)\b/.test(q) && /^[a-z][\w -]{0,40}\b(failing|down|up|ok|okay|good|healthy|slow|broken|degraded|erroring|dead|fine|alive|backing up|backed up|lagging|behind|stuck|timing out|saturated|on fire)(\s+(since|after|before|in|during|over|today|now|right now|lately|again)\b[\w :/.-]*)?\s*\?+\s*$/.test(q));
  const polarity: Polarity | null = verdict ? (BAD.test(q) && !/^(is|are) (it|everything|all|things) (ok|okay|fine|good|healthy)/.test(q) ? 'bad' : GOOD.test(q) ? 'good' : 'bad') : null;
  if (COMPARE.test(q)) return { kind: 'compare', polarity };
  if (SATURATION.test(q) && !/\b(p\d{2,3}|latency)\b/.test(q)) return { kind: 'saturation', polarity };
  if (LIST.test(q) && !/^(which|what) (is|was)\b/.test(q)) return { kind: 'list', polarity: null };
  if (verdict && !/^(what|how)\b/.test(q)) return { kind: 'verdict', polarity };
  if (DIAGNOSIS.test(q)) return { kind: 'diagnosis', polarity: null };
  if (NUMBER.test(q)) return { kind: 'number', polarity: null };
  return { kind: VAGUE.test(q) ? 'status' : 'unknown', polarity: null };
}

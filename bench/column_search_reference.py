"""The column-search algorithm of the Honeycomb analysis-tools specification, as written there:
lower-case both, exact 1.0, prefix 0.9, substring 0.8, else difflib ratio * 0.7, kept above 0.3 (`score > 0.3`),
ordered by score (a stable sort keeps candidate order within ties).

Reads {"candidates": [[dataset, column], ...], "queries": [...], "runs": N, "keep": K} on stdin;
writes one JSON line per query: p50_ms, total_matches and the first K results."""
import json
import sys
import time
from difflib import SequenceMatcher


def score(query, column):
    q = query.lower()
    c = column.lower()
    if c == q:
        return 1.0
    if c.startswith(q):
        return 0.9
    if q in c:
        return 0.8
    return SequenceMatcher(None, q, c).ratio() * 0.7


def search(candidates, query):
    matches = []
    for dataset, column in candidates:
        s = score(query, column)
        if s > 0.3:
            matches.append((s, dataset, column))
    matches.sort(key=lambda m: -m[0])
    return matches


def main():
    spec = json.load(sys.stdin)
    for query in spec["queries"]:
        times = []
        for _ in range(spec["runs"]):
            t = time.perf_counter()
            matches = search(spec["candidates"], query)
            times.append((time.perf_counter() - t) * 1000)
        times.sort()
        print(json.dumps({
            "query": query,
            "p50_ms": times[len(times) // 2],
            "total_matches": len(matches),
            "results": [[d, c, s] for s, d, c in matches[: spec["keep"]]],
        }), flush=True)


main()

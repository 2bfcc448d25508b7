#!/usr/bin/env python3
"""Builds test/unit/ledger/vectors.json from the definition in ARCHITECTURE §3.1, independently of
the TypeScript code: JCS here is Python's json.dumps with sorted keys, no whitespace and UTF-8
(equal to RFC 8785 for the strings and integers used), SHA-256 from hashlib."""
import hashlib, json

def jcs(v):
    return json.dumps(v, sort_keys=True, separators=(',', ':'), ensure_ascii=False)

def sha(s):
    return hashlib.sha256(s.encode('utf-8')).hexdigest()

contents = [
    {"id": "0190a0b0-0000-7000-8000-000000000001", "stream": "org-org_demo", "type": "OrganizationRegistered",
     "schema": 1, "data": {"org_id": "org_demo", "name": "First Builders Bank"},
     "meta": {"org_id": "org_demo", "actor": "system", "request_id": "req-vector-1"},
     "recorded_at": "2026-01-02T03:04:05.000Z"},
    {"id": "0190a0b0-0000-7000-8000-000000000002", "stream": "project-prj_aaaaaaaaaaaaaaaa", "type": "ProjectRegistered",
     "schema": 1, "data": {"name": "Café Tower — Phase 2", "loan_amount": 1250000000, "retainage_pct": 10,
                           "sov": [{"line": 1, "scheduled_value": 50000000}], "note": "tab\tnewline\nquote\"ctrl\u0001"},
     "meta": {"org_id": "org_demo", "actor": "key_demo", "request_id": "req-vector-2", "correlation_id": "corr-1"},
     "recorded_at": "2026-01-02T03:04:06.000Z"},
    {"id": "0190a0b0-0000-7000-8000-000000000003", "stream": "registry-exclusion-x", "type": "SamExclusionRecorded",
     "schema": 1, "data": {"name": "Zeta & Sons, Inc.", "active": True, "terminates_on": None, "ratio": 0.5, "€": "euro key"},
     "meta": {"org_id": None, "actor": "system", "request_id": "req-vector-3"},
     "recorded_at": "2026-01-02T03:04:07.000Z"},
]

prev = "0" * 64
vectors = []
for seq, c in enumerate(contents, start=1):
    text = jcs(c)
    content_hash = sha(text)
    link = jcs({"seq": seq, "prev_hash": prev, "content_hash": content_hash})
    h = sha(link)
    vectors.append({"seq": seq, "content": c, "canonical_content": text, "content_hash": content_hash,
                    "prev_hash": prev, "canonical_link": link, "hash": h})
    prev = h

print(json.dumps({"definition": "ARCHITECTURE.md §3.1: content_hash = sha256(JCS{id,stream,type,schema,data,meta,recorded_at}); hash = sha256(JCS{seq,prev_hash,content_hash}); genesis prev_hash = 64 zeros",
                  "vectors": vectors}, indent=2, ensure_ascii=False))

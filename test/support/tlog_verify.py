"""
An independent verifier of the Plumbline transparency log, written from RFC 9162 §2.1 and the C2SP
signed-note / tlog-checkpoint / tlog-tiles texts with nothing but the Python standard library
(hashlib, base64, json). It shares no code with the service. The Ed25519 signature itself is
checked by `openssl pkeyutl -verify -rawin` (the test spawns it); this script checks everything
else: the note's shape and key id, the checkpoint lines, the receipt's leaf and inclusion proof,
the consistency proof between two checkpoints, and the root rebuilt from entry bundles.

Reads one JSON object on stdin, prints {"ok": bool, "checks": {name: bool}} and exits 0 when every
check passed, 1 otherwise.
"""
import base64
import hashlib
import json
import sys


def sha256(data):
    return hashlib.sha256(data).digest()


def leaf_hash(data):
    return sha256(b"\x00" + data)


def node_hash(left, right):
    return sha256(b"\x01" + left + right)


def mth(leaves):
    """RFC 9162 §2.1.1 MTH over leaf hashes."""
    n = len(leaves)
    if n == 0:
        return sha256(b"")
    if n == 1:
        return leaves[0]
    k = 1
    while k * 2 < n:
        k *= 2
    return node_hash(mth(leaves[:k]), mth(leaves[k:]))


def verify_inclusion(index, size, leaf, proof, root):
    """RFC 9162 §2.1.3.2."""
    if index >= size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while not fn & 1 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == root


def verify_consistency(first, second, first_root, second_root, proof):
    """RFC 9162 §2.1.4.2 (first < second)."""
    if first == second:
        return not proof and first_root == second_root
    if first == 0 or first > second or not proof:
        return first == 0 and not proof
    path = list(proof)
    if first & (first - 1) == 0:
        path.insert(0, first_root)
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            if not fn & 1:
                while not fn & 1 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    return sn == 0 and fr == first_root and sr == second_root


def open_note(note, name, public_key):
    """signed-note: text, blank line, '— name base64(keyid || sig)' lines. Returns (text, sig) or None."""
    if not note.endswith("\n") or "\n\n" not in note:
        return None
    split = note.rindex("\n\n")
    text, sigs = note[: split + 1], note[split + 2 : -1].split("\n")
    key_id = sha256(name.encode() + b"\n" + b"\x01" + public_key)[:4]
    for line in sigs:
        if not line.startswith("\u2014 "):
            return None
        parts = line.split(" ")
        if len(parts) != 3:
            return None
        blob = base64.b64decode(parts[2], validate=True)
        if parts[1] == name and blob[:4] == key_id and len(blob) == 68:
            return text, blob[4:]
    return None


def parse_checkpoint(text):
    lines = text.split("\n")
    if len(lines) < 4 or lines[-1] != "":
        return None
    origin, size, root = lines[0], lines[1], base64.b64decode(lines[2], validate=True)
    if not size.isdigit() or (size != "0" and size.startswith("0")) or len(root) != 32:
        return None
    return origin, int(size), root


def vkey_parts(vkey):
    name, key_id_hex, b64 = vkey.split("+", 2)
    raw = base64.b64decode(b64, validate=True)
    ok = raw[0] == 1 and len(raw) == 33 and sha256(name.encode() + b"\n" + raw).hex()[:8] == key_id_hex
    return name, raw[1:], ok


def link_input(event):
    # JCS of {seq, prev_hash, content_hash}: keys sorted, no spaces.
    return json.dumps(
        {"content_hash": event["content_hash"], "prev_hash": event["prev_hash"], "seq": event["seq"]},
        separators=(",", ":"),
        sort_keys=True,
    ).encode()


def entry_bundle(data):
    out, at = [], 0
    while at < len(data):
        n = int.from_bytes(data[at : at + 2], "big")
        out.append(data[at + 2 : at + 2 + n])
        at += 2 + n
    return out


def main():
    req = json.load(sys.stdin)
    checks = {}
    name, public_key, checks["verifier key id"] = vkey_parts(req["verifier_key"])
    opened = open_note(req["checkpoint"], name, public_key)
    checks["note signature line (name, key id)"] = opened is not None
    cp = parse_checkpoint(opened[0]) if opened else None
    checks["checkpoint lines"] = cp is not None and cp[0] == name
    if cp:
        origin, size, root = cp
        receipt = req["receipt"]
        event = receipt["event"]
        inp = link_input(event)
        checks["receipt leaf input is the event hash's preimage"] = sha256(inp).hex() == event["hash"]
        checks["receipt proved against this checkpoint"] = receipt["tree_size"] == size
        proof = [base64.b64decode(p, validate=True) for p in receipt["inclusion_proof"]]
        checks["inclusion proof"] = verify_inclusion(receipt["leaf_index"], size, leaf_hash(inp), proof, root)
        old = parse_checkpoint(req["old_checkpoint_text"])
        cproof = [base64.b64decode(p, validate=True) for p in req["consistency"]["consistency_proof"]]
        checks["consistency proof"] = old is not None and verify_consistency(old[1], size, old[2], root, cproof)
        entries = []
        for b64 in req["entry_bundles"]:
            entries.extend(entry_bundle(base64.b64decode(b64)))
        leaves = [leaf_hash(e) for e in entries[:size]]
        checks["root from entry bundles"] = len(leaves) == size and mth(leaves) == root
        prev = "0" * 64
        links = True
        for i, e in enumerate(entries[:size]):
            link = json.loads(e)
            links = links and link["seq"] == i + 1 and link["prev_hash"] == prev
            prev = sha256(e).hex()
        checks["chain links from entry bundles"] = links
    ok = all(checks.values())
    print(json.dumps({"ok": ok, "checks": checks}))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

"""A tiny bot of the prefsolve bot protocol (docs/BOT_PROTOCOL.md), in plain Python.

It plays the first legal option of every decision and, holding the talon, puts
away the first two of its twelve cards. It reads only the protocol's JSON: it
imports nothing of prefsolve. For the tests it can also misbehave at its N-th
decision: ``--crash N`` (exits with status 3), ``--hang N`` (never answers),
``--nonsense N`` (answers a card it does not hold), ``--garbage N`` (answers
what is not JSON); ``--protocol N`` greets with another version of the protocol.
"""

import json
import sys
import time


def cards_of(hand):
    """'A.KT9.-.7' -> ['SA', 'CK', 'CT', 'C9', 'H7']: dotted suits ♠.♣.♦.♥."""
    return [suit + rank for suit, ranks in zip("SCDH", hand.split(".")) for rank in ranks if rank != "-"]


def decide(view):
    if view["kind"] == "declaration":
        hand = cards_of(view["hand"])
        return {"contract": view["options"][0], "discard": hand[:2] if len(hand) == 12 else None}
    return view["options"][0]


def main(argv):
    misbehave = {argv[i]: int(argv[i + 1]) for i in range(0, len(argv) - 1, 2)}
    decisions = 0
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            answer = {"type": "hello", "protocol": misbehave.get("--protocol", 1), "name": "tiny", "sees_all": False}
        elif message["type"] == "deal":
            continue
        elif message["type"] == "decide":
            decisions += 1
            if misbehave.get("--crash") == decisions:
                print("tiny bot: crashing as asked", file=sys.stderr)
                sys.exit(3)
            if misbehave.get("--hang") == decisions:
                time.sleep(3600)
            if misbehave.get("--garbage") == decisions:
                print("this is not JSON", flush=True)
                continue
            decision = "HX" if misbehave.get("--nonsense") == decisions else decide(message["view"])
            answer = {"type": "decision", "decision": decision}
        else:
            return
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])

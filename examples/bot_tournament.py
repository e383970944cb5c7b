"""A round-robin tournament between the bots, under one ruleset.

Every pair of bots plays the same number of deals (seats alternate, so neither bot always
starts); the table shows each bot's deals won, points scored, and the head-to-head win
rates with 95% confidence intervals.

Run it with ``python examples/bot_tournament.py [RULES] [DEALS]``, for example
``python examples/bot_tournament.py serbian 20``.
"""

import itertools
import sys

from crapette.simulation import simulate

RULES = sys.argv[1] if len(sys.argv) > 1 else "classic"
DEALS = int(sys.argv[2]) if len(sys.argv) > 2 else 6
# A small search budget keeps the example fast; "search" alone uses the default budget.
BOTS = ("random", "greedy", "search:5")

won = dict.fromkeys(BOTS, 0)
points = dict.fromkeys(BOTS, 0)
print(f"Rules {RULES}, {DEALS} deals per pairing\n")
for number, (a, b) in enumerate(itertools.combinations(BOTS, 2)):
    result = simulate(RULES, (a, b), DEALS, seed=100 + number)
    summary = result.summary
    won[a] += summary.wins[0]
    won[b] += summary.wins[1]
    for record in result.records:
        score_a, score_b = record.bot_scores()
        points[a] += score_a
        points[b] += score_b
    print(
        f"{a:>9} vs {b:<9} {summary.wins[0]:>2}-{summary.wins[1]:<2} {a} wins {summary.win_rate[0]}"
    )

print(f"\n{'bot':<10} {'deals won':>9} {'points':>7}")
for bot in sorted(BOTS, key=lambda name: (-won[name], -points[name])):
    print(f"{bot:<10} {won[bot]:>9} {points[bot]:>7}")

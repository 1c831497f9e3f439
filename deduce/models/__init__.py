"""One subpackage per game: cards, rules, knowledge, advice, bots."""

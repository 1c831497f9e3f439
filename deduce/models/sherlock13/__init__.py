"""Sherlock 13: cards, rules engine, knowledge model, advice and bots."""

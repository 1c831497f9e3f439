"""Deductions (the deck game): cards, rules engine, patterns, payment, milestones, advice and bots."""

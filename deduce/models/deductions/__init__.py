"""Deductions (the deck game): cards, rules engine, payment and milestone solvers."""

"""deduce: a constraint-solving deduction assistant for Sherlock Holmes board games."""

__version__ = "0.1.0"

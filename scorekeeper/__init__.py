"""Scorekeeper: keep score at a real card table (Trix, Trix Complex, Turkish King)."""

__version__ = "0.1.0"

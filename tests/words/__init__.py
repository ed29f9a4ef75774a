"""Tests of scorekeeper.words."""

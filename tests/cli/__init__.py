"""Tests of scorekeeper.cli."""

"""Tests of scorekeeper.serving."""

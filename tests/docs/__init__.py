"""Tests of the project's pages: README.md and docs/."""

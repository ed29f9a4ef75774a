"""Tests of the catalogues (scorekeeper/translations): complete, faithful, plural forms."""

"""What the table reads: names of games, contracts and cards, a deal's takes in short form, the
running-totals chart and the exports. Pure Python (no Flask): every word goes through a
``translate`` function the caller passes (the web layer's gettext, or English as written)."""

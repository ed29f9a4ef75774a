"""The phone's side of the app: what a game page's Web Worker runs under Pyodide, with the
engine (``rules``) and the reader's words (``words``) it imports.

- :mod:`.worker`: the worker's one entry (``static/js/engine-worker.js`` hands it every
  message) and what it answers: a tap's preview, the game with the deals this phone keeps.
- :mod:`.render`: the server's deal-form templates, rendered here with the same words.
- :mod:`.view`: the game page's parts as the phone repaints them.
- :mod:`.bytecode`: the bundle compiled once by the phone's own interpreter.
- :mod:`.cases`: conversations through every path the worker answers (the parity test's, and
  the vendoring script's: what the engine imports under Pyodide); not part of the app.

The server makes the bundle from these files as installed (:mod:`scorekeeper.serving.engine`);
nothing of the server imports them.
"""

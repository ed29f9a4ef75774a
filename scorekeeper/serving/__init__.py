"""How the app meets the network: what stands between a phone's connection and the Flask app.

- ``server``: ``scorekeeper serve`` runs the app under granian (Rust/hyper reads each request's
  head, so a slow or silent client holds no Python thread);
- ``gateway``: the body of a request is read on the worker's event loop, within a deadline,
  before a thread is given the request; an unchanged game's poll is answered right there;
- ``live_poll``: that poll's answer (204/304 from the game's version) without the rest of Flask;
- ``assets``: compressed responses, cache-busted static files and the per-language manifest.

:func:`scorekeeper.create_app` puts them around the web app (``wrap``); importing this package,
the server or the gateway loads no web stack. ``docs/serving.md`` says why each piece exists
and which library was judged instead.
"""

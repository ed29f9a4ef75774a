"""What the server gives a phone to go on with no network: the service worker at the app's root,
the mark on a game page it may keep (a started game's whole page only), and the offline kit
(a blank deal form for every contract of the game, every group open, and the words the page
says about the deals it keeps). tests/browser/test_offline.py plays with them in Chromium."""

from __future__ import annotations

import json
import re

from flask import Flask

from scorekeeper.rules import GAMES
from scorekeeper.serving.assets import minified_js
from scorekeeper.store.sync import MOST_PENDING
from scorekeeper.web.views.common import OFFLINE_HEADER
from tests.conftest import Phone
from tests.rules.builders import FULL_GAME

HTMX = {"HX-Request": "true"}


def test_the_service_worker_is_served_at_the_root_with_its_sync_by_content(
    app: Flask, phone: Phone
) -> None:
    response = phone.client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"  # the browser looks for updates
    assert "Set-Cookie" not in response.headers  # the same for everyone
    script = response.get_data(as_text=True)
    imported = re.search(r'from"(/engine/sync\.js\?v=[0-9a-f]{10})"', script)
    assert imported is not None, script[:300]
    sync = phone.client.get(imported.group(1))
    assert sync.status_code == 200 and "export function send" in sync.get_data(as_text=True)
    assert "immutable" in sync.headers["Cache-Control"] and "Set-Cookie" not in sync.headers
    # the facts the phone shares with the server, from the server's one source
    facts = re.search(r"const FACTS=(\{[^}]*\})", sync.get_data(as_text=True))
    assert facts is not None
    assert json.loads(facts.group(1)) == {"tag": "scorekeeper-sync", "most": MOST_PENDING}
    assert phone.client.get("/engine/sync.js?v=0000000000").status_code == 404
    source = (app.static_folder or "") + "/js/sw.js"
    with open(source, "rb") as handle:  # minified as written, the import's address aside
        written = minified_js(handle.read()).decode()
    assert script == written.replace('"./static/js/sync.js"', f'"{imported.group(1)}"')


def test_the_engine_config_names_the_offline_scripts_and_the_service_worker(
    app: Flask, phone: Phone
) -> None:
    phone.new_game(first=0)
    html = phone.game_page().get_data(as_text=True)
    found = re.search(r'data-engine="([^"]+)"', html)
    assert found is not None
    config = phone.client.get(found.group(1).replace("&amp;", "&")).get_json()
    assert config["service_worker"] == "/sw.js"
    for name, folder in (("offline", "static/js"), ("sync", "engine")):
        assert re.fullmatch(rf"/{folder}/{name}\.js\?v=[0-9a-f]{{10}}", config[name])
        assert config[name] in config["files"]  # kept by the service worker
        assert phone.client.get(config[name]).status_code == 200


def test_only_a_started_games_whole_page_is_marked_to_be_kept(app: Flask, phone: Phone) -> None:
    phone.new_game()
    waiting = phone.client.get(phone.url)  # who is first: not a page to keep
    assert waiting.status_code == 200 and OFFLINE_HEADER not in waiting.headers
    phone.choose_first(0)
    whole = phone.game_page()
    assert whole.headers[OFFLINE_HEADER] == "game"
    assert whole.headers["Content-Language"] == "en"
    assert whole.headers["Cache-Control"] == "no-store"  # (a capability: no HTTP cache keeps it)
    assert OFFLINE_HEADER not in phone.client.get(phone.url, headers=HTMX).headers
    phone.client.get("/?lang=ar")
    assert phone.game_page().headers["Content-Language"] == "ar"
    view_token = phone.row().view_token
    view = phone.client.get(f"/v/{view_token}")
    assert view.status_code == 200 and OFFLINE_HEADER not in view.headers


def test_the_offline_kit_holds_a_blank_form_for_every_contract(app: Flask, phone: Phone) -> None:
    phone.new_game("trix-complex", first=0)
    kit = phone.client.get(f"{phone.url}/offline")
    assert kit.status_code == 200
    assert kit.headers["Cache-Control"] == "no-store"
    html = kit.get_data(as_text=True)
    contracts = re.findall(r'<template data-contract="([^"]+)"><form id="deal-form"', html)
    assert contracts == list(GAMES["trix-complex"].contracts) == ["trix", "complex"]
    complex_form = html[html.index('data-contract="complex"') :]
    # every group open (the Complex doubles too: nothing to fetch with no network)
    assert "<details" not in complex_form and 'name="doubled_by-KH"' in complex_form
    for name in ("number", "version", "entry_key", "autofilled"):
        assert f'name="{name}"' in complex_form
    assert 'hx-post="' in complex_form  # (the form the page shows, as the page shows it)
    words = re.search(r'<template data-kit="words"([^>]*)>', html)
    assert words is not None and 'data-saved="Saved on this phone:' in words.group(1)
    phone.client.get("/?lang=ar")
    arabic = phone.client.get(f"{phone.url}/offline").get_data(as_text=True)
    words = re.search(r'<template data-kit="words"([^>]*)>', arabic)
    assert words is not None and "Saved on this phone" not in words.group(1)


def test_no_kit_for_a_game_not_started_or_finished(app: Flask, phone: Phone) -> None:
    phone.new_game()
    assert phone.client.get(f"{phone.url}/offline").status_code == 204
    phone.choose_first(0)
    for deal in FULL_GAME["trix"]:
        phone.enter(deal)
    assert phone.client.get(f"{phone.url}/offline").status_code == 204
    assert phone.client.get("/g/AAAAAAAAAAAAAAAAAAAAAA/offline").status_code == 404


def test_the_kit_is_the_forms_the_page_would_show(app: Flask, phone: Phone) -> None:
    """The kit's form for a contract is the form the game page opens for it (made by the same
    template), but for its key (and its open groups: none are folded in a Trix form)."""
    phone.new_game(first=0, doubling=False)
    kit = phone.client.get(f"{phone.url}/offline", headers=HTMX).get_data(as_text=True)
    kept = re.search(r'<template data-contract="diamonds">(.*?)</template>', kit, re.S)
    assert kept is not None
    shown = phone.client.get(f"{phone.url}/deal?contract=diamonds", headers=HTMX)

    def keyless(html: str) -> str:
        return re.sub(r'name="entry_key" type="hidden" value="[^"]+"', "", html).strip()

    form = keyless(shown.get_data(as_text=True))
    assert json.dumps(keyless(kept.group(1))) == json.dumps(form)

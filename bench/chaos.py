"""Chaos at the table (issue 42): a seeded driver of 2–3 phones on one Trix game, checking
afterwards that nothing a phone kept is lost, stored twice or left wrong.

Each scenario serves one game with its own `scorekeeper serve` (a fresh instance folder, a fixed
port so that it can be killed and started again on the same database) and drives 2–3 phones
(Chromium at 390 × 844, each its own context: its own IndexedDB and service worker) for a
bounded number of steps, each chosen by `random.Random(seed)`: a phone enters the next deal by
taps (a legal deal of a contract the page offers; online, or offline), undoes its last deal (its
own undo while it keeps deals, else the server's Undo), reloads its page, goes offline or
online; the next sync or save of a phone loses its answer (fetched by the server, the answer
aborted) or gets it late (held for a few steps); the server is killed (-9) and started again a
few steps later; a phone's conflict panel is answered (a person's choice). Then everything comes
back online, every phone settles (its panels answered), and the checks run:

(a) the game's export passes `scorekeeper check`;
(b) no key stored twice, and no two standing deals come from one entry (a deal and its copy
    entered again as the next deal);
(c) every key a phone showed as saved or kept stands in the game, or a person dropped or undid
    it (then it must not stand);
(d) every phone's totals, after a reload online, are the server's (its export replayed).

    python bench/chaos.py --seeds 1-40 [--phones 2|3] [--steps 24]
    python bench/chaos.py --seeds 1-20 --plain-http
    python bench/chaos.py --seeds 1-20 --postgres postgresql://postgres@127.0.0.1:5433/postgres
    python bench/chaos.py --smoke

Timing is not seeded (the engine's start, the server's answers), so a seed repeats its steps,
not always their outcome. tests/browser/test_chaos.py runs a few short seeds through `scenario`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import ROOT, bench_env, free_port, init_db, log, stop, temp_instance
from taps import CHROMIUM, CHROMIUM_ARGS

from tests.browser.driver import chip_label, chip_taps  # (the browser tests' phones: one owner)
from tests.browser.offline_phone import NO_BACKGROUND_SYNC, phone_context

LAN_HOST = "scorekeeper.lan.test"
PLAYERS = ["Rami", "Lina", "Omar", "Dana"]
ENGINE_WAIT_MS = 120_000
"""How long a phone's engine may take to start (Pyodide on a busy 2-core machine)."""
SETTLE_S = 120
"""How long the phones may take to send what they keep once everything is back."""

GAME_PAGE = re.compile(r"/g/[^/?#]+$")
OPEN_DB = """
const openDb = () => new Promise((done) => {
  const opening = indexedDB.open("scorekeeper-offline", 1);
  /* (as static/js/sync.js makes it: a phone that never kept anything gets the same store) */
  opening.onupgradeneeded = () => opening.result.createObjectStore("games", { keyPath: "game" });
  opening.onsuccess = () => done(opening.result);
  opening.onerror = () => done(null);
});
const readState = async (game) => {
  const db = await openDb();
  if (!db) { return null; }
  return new Promise((done) => {
    const asked = db.transaction("games").objectStore("games").get(game);
    asked.onsuccess = () => {
      const s = asked.result;
      db.close();
      done(s ? {
        pending: (s.pending || []).map((e) => ({ key: e.key, number: e.number, deal: e.deal })),
        withdraw: s.withdraw || [], blocked: s.blocked || null, stopped: s.stopped || null,
      } : null);
    };
    asked.onerror = () => { db.close(); done(null); };
  });
};
"""
STATE_JS = "async (game) => {" + OPEN_DB + "return await readState(game); }"
NEXT_JS = (
    "async ([game, old]) => {"
    + OPEN_DB
    + """
  const before = await readState(game);
  const known = new Set(before ? before.pending.map((e) => e.key) : []);
  const button = [...document.querySelectorAll("#kept [data-kept=next]")]
    .find((b) => b.getAttribute("data-key") === old);
  if (!button) { return null; }
  button.click();
  for (let i = 0; i < 1000; i++) {
    await new Promise((r) => setTimeout(r, 10));
    const now = await readState(game);
    if (!now) { return []; }
    if (!now.blocked || now.blocked.key !== old) {
      return now.pending.map((e) => e.key).filter((k) => !known.has(k));
    }
  }
  return [];
}"""
)
SAVE_OUTCOME_JS = """() => {
  if (document.querySelector("form#deal-form")) { return null; }
  const flash = document.getElementById("flash"), said = flash ? flash.textContent : "";
  if (said.includes("Saved on this phone")) { return "kept"; }
  if (document.querySelector("#flash .flash-success")) { return "saved"; }
  return null;
}"""
IDLE_JS = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"


# --- legal deals -------------------------------------------------------------------------------


def split13(rng: random.Random) -> list[int]:
    """13 cards or tricks shared by four seats."""
    cuts = sorted(rng.randint(0, 13) for _ in range(3))
    return [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 13 - cuts[2]]


def make_deal(rng: random.Random, contract: str) -> dict[str, Any]:
    """A legal Trix deal of `contract`, varied (so that two phones' deals differ), checked by
    the engine; the bench's sample deal if none is found."""
    from common import raw_deal

    from scorekeeper.rules import Game, HouseRules, parse_deal

    definition = Game("trix", "solo", tuple(PLAYERS), 0, HouseRules()).definition
    for _ in range(20):
        if contract == "king-of-hearts":
            raw: dict[str, Any] = {"contract": contract, "taker": rng.randrange(4)}
        elif contract == "queens":
            raw = {"contract": contract, "takers": {s: rng.randrange(4) for s in "SHDC"}}
        elif contract == "diamonds":
            raw = {"contract": contract, "counts": split13(rng)}
        elif contract == "ltoosh":
            raw = {"contract": contract, "tricks": split13(rng)}
        elif contract == "trix":
            order = [0, 1, 2, 3]
            rng.shuffle(order)
            raw = {"contract": contract, "order": order}
        else:
            break
        deal, _problems = parse_deal(definition, raw)
        if deal is not None:
            return raw
    return raw_deal(contract)


# --- the servers -------------------------------------------------------------------------------


class Server:
    """`scorekeeper serve` on a fixed port, killed with -9 and started again on it."""

    def __init__(self, instance: str, port: int, database_url: str | None) -> None:
        self.instance, self.port, self.database_url = instance, port, database_url
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def up(self) -> bool:
        return self.process is not None

    def start(self) -> None:
        self.starts += 1
        command = [sys.executable, "-m", "scorekeeper.cli", "serve", "--host", "127.0.0.1"]
        command += ["--port", str(self.port), "--workers", "1"]
        env = bench_env(self.instance, self.database_url)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        with open(os.path.join(self.instance, f"server-{self.port}.log"), "a") as out:
            self.process = subprocess.Popen(
                command, env=env, cwd=str(ROOT), stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with (
                contextlib.suppress(OSError, urllib.error.URLError),
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/", timeout=2) as answer,
            ):
                if answer.status == 200:
                    return
            if self.process.poll() is not None:
                break
            time.sleep(0.2)
        raise RuntimeError(f"scorekeeper serve on port {self.port} did not start")

    def kill(self) -> None:
        """kill -9 of the server and its workers (its own process group)."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)
        self.process = None

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)
            self.process = None


# --- the phones --------------------------------------------------------------------------------


@dataclass
class Phone:
    """One phone: its context and page, and what its person saw and did."""

    index: int
    context: Any
    page: Any
    base: str
    offline: bool = False
    shown: dict[str, str] = field(default_factory=dict)
    """key → "saved" / "kept": the page said so when Save was tapped."""
    removed: dict[str, str] = field(default_factory=dict)
    """key → "dropped" / "undone": a person's tap."""
    armed: str | None = None
    """"lose" / "hold": what the next sync (or save) of this phone meets."""
    held: list[tuple[Any, Any, int]] = field(default_factory=list)
    """(route, the server's answer, the step it is released at)."""
    errors: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"phone {self.index + 1}"


class Scenario:
    """One seeded scenario: the game, the phones, the steps, the checks."""

    def __init__(self, browser: Any, seed: int, options: argparse.Namespace, base_host: str):
        self.browser, self.seed, self.options = browser, seed, options
        self.rng = random.Random(seed)
        self.late = random.Random(-seed)  # (how late: drawn when an answer comes, not per step)
        self.base_host = base_host
        self.servers: list[Server] = []
        self.phones: list[Phone] = []
        self.token = ""
        self.steps: list[str] = []
        self.notes: list[str] = []
        self.restart_at: dict[int, int] = {}  # server index → step
        self.lineage: dict[str, str] = {}  # a key entered again as the next deal → the first
        self.kept_at_next: list[tuple[str, Any]] = []  # (old key, deal) of each "next"
        self.undone_on_server: set[str] = set()
        self.step_no = 0

    # --- setting up ---------------------------------------------------------------------------

    @property
    def game(self) -> str:
        return f"/g/{self.token}"

    def base_of(self, server: Server) -> str:
        return f"http://{self.base_host}:{server.port}"

    def open_phone(self, index: int) -> Phone:
        server = self.servers[index % len(self.servers)]
        base = self.base_of(server)
        context = phone_context(self.browser, base)
        if self.rng.random() < 0.5:  # the page's own syncs alone: the routes see every one
            context.add_init_script(
                f"if (self.ServiceWorkerRegistration) ({NO_BACKGROUND_SYNC})();"
            )
            self.notes.append(f"phone {index + 1}: no Background Sync")
        phone = Phone(index, context, context.new_page(), base)
        phone.page.on(
            "pageerror", lambda error: phone.errors.append(f"{error.name}: {error.message}"[:200])
        )
        phone.page.on("console", lambda message: self.heard(phone, message))
        return phone

    def start_game(self, phone: Phone) -> None:
        """A new Trix game by taps: the home page, the setup, who is first."""
        page = phone.page
        page.goto("/")
        page.locator("a.button.primary[href$='/new']").first.click()
        page.wait_for_url(re.compile(r"/new$"))
        for name, value in (("game", "trix"), ("mode", "solo")):
            self.chip(page, name, value).click()
        for seat, player in enumerate(PLAYERS):
            page.fill(f'input[name="player_{seat}"]', player)
        page.locator("form button[type=submit].primary").first.click()
        page.wait_for_url(GAME_PAGE)
        page.locator('.seat-buttons button[value="0"]').click()
        page.locator(".next .contracts").wait_for()
        found = re.search(r"/g/([^/?#]+)", page.url)
        assert found, page.url
        self.token = found.group(1)

    def heard(self, phone: Phone, message: Any) -> None:
        """The page's own words of what it waits for (static/js/offline.js logs them)."""
        with contextlib.suppress(Exception):
            said = message.text
            noise = said.startswith(("Failed to load resource", "htmx:"))
            if (message.type == "error" and not noise) or said.startswith("scorekeeper:"):
                phone.errors.append(f"step {self.step_no}: console {message.type}: {said[:160]}")

    def said(self, phone: Phone) -> str:
        """What the page says now (its flash, the conflict panel, a form's error)."""
        try:
            return " | ".join(
                t.strip()
                for t in phone.page.locator(
                    "#flash, #kept, form .net-error, #net-error"
                ).all_inner_texts()
                if t.strip()
            )[:240]
        except Exception:
            return "(unreadable)"

    @staticmethod
    def chip(page: Any, name: str, value: str) -> Any:
        return chip_label(page, name, value)

    # --- looking at a phone -------------------------------------------------------------------

    def on_game(self, phone: Phone) -> bool:
        return phone.page.url.startswith(phone.base + self.game) and bool(
            phone.page.locator("#scoreboard").count()
        )

    def state(self, phone: Phone) -> dict[str, Any] | None:
        if not phone.page.url.startswith(phone.base):
            return None
        try:
            result: dict[str, Any] | None = phone.page.evaluate(STATE_JS, self.game)
            return result
        except Exception:  # an error page, a navigation meanwhile
            return None

    def ready(self, phone: Phone, wait_ms: int) -> bool:
        try:
            phone.page.wait_for_selector(
                "html[data-offline-ready]", state="attached", timeout=wait_ms
            )
            return True
        except Exception:
            return False

    def idle(self, phone: Phone, wait_ms: int = 10_000) -> None:
        with contextlib.suppress(Exception):
            phone.page.wait_for_function(IDLE_JS, timeout=wait_ms)

    def panel(self, phone: Phone) -> list[str]:
        """The choices the phone's conflict panel offers."""
        try:
            return [
                str(b.get_attribute("data-kept"))
                for b in phone.page.locator("#kept [data-kept]").all()
            ]
        except Exception:
            return []

    # --- the database -------------------------------------------------------------------------

    def database_url(self) -> str:
        if self.options.postgres:
            return str(self.options.postgres).replace("postgresql://", "postgresql+psycopg://", 1)
        return "sqlite:///" + os.path.join(self.instance, "scorekeeper.sqlite")

    def stored(self) -> tuple[list[Any], list[dict[str, Any]]]:
        """The game's deals and its entries (key, kind, number, version, deal)."""
        from sqlalchemy import create_engine, text

        engine = create_engine(self.database_url())
        try:
            with engine.connect() as db:
                row = db.execute(
                    text("SELECT id, deals FROM games WHERE token = :t"), {"t": self.token}
                ).one()
                deals = json.loads(row[1]) if isinstance(row[1], str) else row[1]
                entries = [
                    {
                        "key": e[0],
                        "kind": e[1],
                        "number": e[2],
                        "version": e[3],
                        "deal": json.loads(e[4]) if isinstance(e[4], str) else e[4],
                    }
                    for e in db.execute(
                        text(
                            "SELECT key, kind, number, version, deal FROM entries"
                            " WHERE game_id = :g ORDER BY version"
                        ),
                        {"g": row[0]},
                    )
                ]
        finally:
            engine.dispose()
        return deals, entries

    def standing(self) -> dict[str, int]:
        """Key → deal number of each entry that stands in the game: at each place, the last
        entry written there with the deal the place holds."""
        deals, entries = self.stored()
        stands: dict[int, str] = {}
        for entry in entries:  # (by version: the last write wins)
            if entry["kind"] != "deal":
                continue
            at = entry["number"] - 1
            if at < len(deals) and deals[at] == entry["deal"]:
                stands[entry["number"]] = entry["key"]
        return {key: number for number, key in stands.items()}

    # --- the steps ----------------------------------------------------------------------------

    def step(self, what: str) -> None:
        self.steps.append(f"{self.step_no}: {what}")

    def run_steps(self, count: int) -> None:
        for self.step_no in range(1, count + 1):
            self.due()
            phone = self.rng.choice(self.phones)
            choices = ["enter"] * 8 + ["undo"] * 2 + ["reload"] * 2 + ["network"] * 4
            choices += (
                ["lose"] * 2 + ["hold"] * 3 + (["kill"] if all(s.up for s in self.servers) else [])
            )
            with_panel = [p for p in self.phones if self.panel(p)]
            if with_panel:
                choices += ["answer"] * 4
            what = self.rng.choice(choices)
            if what == "answer":
                self.answer(self.rng.choice(with_panel))
            elif what == "enter":
                self.enter(phone)
            elif what == "undo":
                self.undo(phone)
            elif what == "reload":
                self.reload(phone)
            elif what == "network":
                phone.offline = not phone.offline
                phone.context.set_offline(phone.offline)
                self.step(f"{phone.name} goes {'offline' if phone.offline else 'online'}")
            elif what in ("lose", "hold"):
                phone.armed = what
                self.arm(phone)
                self.step(f"{phone.name}: its next sync or save {what}s its answer")
            elif what == "kill":
                at = self.rng.randrange(len(self.servers))
                self.servers[at].kill()
                self.restart_at[at] = self.step_no + self.rng.randint(1, 3)
                self.step(f"server {at + 1} killed (-9), back at step {self.restart_at[at]}")

    def due(self) -> None:
        """What a step starts with: servers back, late answers let through."""
        for at, when in list(self.restart_at.items()):
            if when <= self.step_no:
                self.servers[at].start()
                del self.restart_at[at]
                self.step(f"server {at + 1} started again")
        for phone in self.phones:
            for held in [h for h in phone.held if h[2] <= self.step_no]:
                phone.held.remove(held)
                self.release(phone, held)

    def release(self, phone: Phone, held: tuple[Any, Any, int]) -> None:
        route, response, _ = held
        try:
            if response is None:
                route.abort("connectionreset")
            else:
                route.fulfill(response=response)
            self.step(f"{phone.name}: a late answer let through")
        except Exception as error:  # the page gave up on it (its own timeout), or reloaded
            self.step(f"{phone.name}: a late answer came too late ({type(error).__name__})")

    def arm(self, phone: Phone) -> None:
        """The phone's next sync (its page's or its service worker's: the context's routes see
        both) or save meets a lost or late answer: the server gets the request and answers,
        the phone gets the answer never (aborted) or some steps later. A save's answer is lost,
        never held (the page would wait on it)."""

        def matches(url: str) -> bool:
            return url.endswith(self.game + "/sync") or url.endswith(self.game + "/deal")

        def handler(route: Any) -> None:
            request = route.request
            kind = "sync" if request.url.endswith("/sync") else "save"
            if (
                request.method != "POST"
                or phone.armed is None
                or (phone.armed == "hold" and kind == "save")
            ):
                route.fallback()
                return
            mode, phone.armed = phone.armed, None
            with contextlib.suppress(Exception):
                phone.context.unroute(matches)
            try:  # (from the driver, which knows no LAN name: the server's own address)
                response = route.fetch(url=request.url.replace(LAN_HOST, "127.0.0.1"))
            except Exception:  # the server is down: nothing to lose or hold
                with contextlib.suppress(Exception):
                    route.abort("connectionrefused")
                return
            if mode == "lose":
                with contextlib.suppress(Exception):
                    route.abort("connectionreset")
                self.notes.append(f"step {self.step_no}: {phone.name}'s {kind} answer lost")
            else:
                phone.held.append((route, response, self.step_no + self.late.randint(1, 2)))
                self.notes.append(f"step {self.step_no}: {phone.name}'s sync answer held")

        phone.context.route(matches, handler)

    def enter(self, phone: Phone) -> None:
        page = phone.page
        where = "offline" if phone.offline else "online"
        if not self.on_game(phone):
            self.step(f"{phone.name} cannot enter a deal: not on the game page ({page.url[:60]})")
            return
        state = self.state(phone) or {}
        if state.get("blocked"):
            self.step(f"{phone.name} cannot enter a deal: its panel waits for a choice")
            return
        if (phone.offline or state.get("pending")) and not self.ready(phone, 20_000):
            why = [e for e in phone.errors if "scorekeeper:" in e][-1:]
            self.step(
                f"{phone.name} cannot enter a deal {where}: not ready {why} {self.said(phone)}"
            )
            return
        self.idle(phone)
        contracts = page.evaluate(
            """() => [...document.querySelectorAll("#play a.contract")].map((link) =>
              new URL(link.getAttribute("href"), location.href).searchParams.get("contract"))
              .filter(Boolean)"""
        )
        if not contracts:
            self.step(f"{phone.name} cannot enter a deal: no contract offered")
            return
        contract = self.rng.choice(sorted(set(contracts)))
        raw = make_deal(self.rng, contract)
        try:
            page.locator(f'#play a.contract[href*="contract={contract}"]').first.click()
            page.locator("form#deal-form").wait_for(timeout=30_000)
            self.idle(phone)
            for name, value in chip_taps(raw):
                field_ = page.locator(f'input[name="{name}"][value="{value}"]').first
                if field_.is_checked():
                    continue
                self.chip(page, name, value).first.click()
                self.idle(phone)
            page.wait_for_function(
                "() => { const s = document.querySelector('#deal-save');"
                " return s && !s.disabled; }",
                timeout=20_000,
            )
            key = page.locator("form#deal-form input[name=entry_key]").input_value()
            # (what the page said before leaves: only what Save makes it say counts)
            page.evaluate(
                "() => document.querySelectorAll('#flash > *').forEach((f) => f.remove())"
            )
            page.locator("#deal-save").click()
            outcome = None
            with contextlib.suppress(Exception):
                outcome = page.wait_for_function(SAVE_OUTCOME_JS, timeout=25_000).json_value()
        except Exception as error:
            reason = str(error).splitlines()[0][:100]
            said = self.said(phone)
            self.step(f"{phone.name} could not enter {contract} {where}: {reason}; {said}")
            self.cancel(phone)
            return
        said = f"{outcome} {key}" if outcome else f"not saved {key} ({self.said(phone)})"
        if outcome:
            phone.shown[key] = outcome
        else:
            self.cancel(phone)
        self.step(f"{phone.name} enters {json.dumps(raw)} {where}: {said}")

    def cancel(self, phone: Phone) -> None:
        with contextlib.suppress(Exception):
            cancel = phone.page.locator("form#deal-form a.button")
            if cancel.count():
                cancel.first.click()
                self.idle(phone)

    def undo(self, phone: Phone) -> None:
        page = phone.page
        if not self.on_game(phone):
            self.step(f"{phone.name} cannot undo: not on the game page")
            return
        self.idle(phone)
        local = page.locator("#undo [data-kept=undo]")
        if local.count():
            state = self.state(phone) or {}
            pending = state.get("pending") or []
            blocked = state.get("blocked")
            chain = pending
            if blocked:
                at = (
                    [e["key"] for e in pending].index(blocked["key"])
                    if any(e["key"] == blocked["key"] for e in pending)
                    else -1
                )
                chain = pending[:at] if at >= 0 else pending
            if not chain:
                self.step(f"{phone.name}: an undo button but nothing kept")
                return
            key = chain[-1]["key"]
            try:
                local.first.click(timeout=10_000)
            except Exception:  # the deal reached the server meanwhile: its undo is the server's
                self.step(f"{phone.name}: its kept deal went to the server before the tap")
                return
            phone.removed[key] = "undone"
            self.idle(phone)
            self.step(f"{phone.name} undoes its kept deal {chain[-1]['number']} ({key})")
            return
        server = page.locator("#undo form[action$='/undo'] button")
        if not server.count():
            self.step(f"{phone.name}: no undo offered")
            return
        # (with two app servers, one down: this phone's may be the other, and the undo goes
        # through; what it did is read from the database either way)
        before = self.standing()
        label = server.first.inner_text()
        with contextlib.suppress(Exception):
            server.first.click()
            self.idle(phone)
            page.wait_for_timeout(300)
        gone = set(before) - set(self.standing())
        for key in gone:
            phone.removed[key] = "undone"
            self.undone_on_server.add(key)
        self.step(f"{phone.name} taps '{label}' (the server's): undid {sorted(gone)}")

    def reload(self, phone: Phone) -> None:
        where = "offline" if phone.offline else "online"
        try:
            phone.page.goto(phone.base + self.game, wait_until="domcontentloaded", timeout=30_000)
            self.step(f"{phone.name} reloads {where}")
        except Exception as error:
            self.step(f"{phone.name} reloads {where}: {str(error).splitlines()[0][:80]}")

    def answer(self, phone: Phone) -> None:
        """A person answers the phone's panel: the choice is theirs (recorded)."""
        state = self.state(phone) or {}
        blocked = state.get("blocked")
        choices = self.panel(phone)
        if not blocked or not choices:
            self.step(f"{phone.name}: its panel went before it was answered")
            return
        choice = self.rng.choice(choices)
        # the button itself, held (a locator is found again at each use: the panel may be
        # painted anew between reading its deal and the tap), and the deal it names (the state
        # read above may be a moment old)
        try:
            button = phone.page.locator(f"#kept [data-kept={choice}]").first.element_handle(
                timeout=2_000
            )
            key = button.get_attribute("data-key")
        except Exception:
            button, key = None, None
        if button is None or key is None:
            self.step(f"{phone.name}: its panel went before it was answered")
            return
        if choice == "next":
            deal = next((e["deal"] for e in state["pending"] if e["key"] == key), None)
            self.kept_at_next.append((key, deal))
            made = phone.page.evaluate(NEXT_JS, [self.game, key]) or []
            for new in made:
                self.lineage[new] = key
        else:
            try:
                button.click(timeout=5_000)
            except Exception:  # painted anew under the tap: nothing was chosen
                self.step(f"{phone.name}: its panel changed before the tap")
                return
        if choice == "drop":
            phone.removed[key] = "dropped"
        elif choice == "undo-server":
            phone.removed[key] = "undone"
        elif choice == "keep":
            phone.removed.pop(key, None)  # the person keeps the deal the server stored
        self.idle(phone)
        self.step(f"{phone.name} answers '{blocked['outcome']}' for {key}: {choice}")

    # --- settling and the checks --------------------------------------------------------------

    def settle(self) -> list[str]:
        for phone in self.phones:
            for held in list(phone.held):
                phone.held.remove(held)
                self.release(phone, held)
            phone.armed = None
            with contextlib.suppress(Exception):
                phone.context.unroute_all(behavior="ignoreErrors")
        for server in self.servers:
            if not server.up:
                server.start()
        self.restart_at.clear()
        for phone in self.phones:
            phone.offline = False
            phone.context.set_offline(False)
            if not self.on_game(phone):
                self.reload(phone)
        unsettled: list[str] = []
        deadline = time.monotonic() + SETTLE_S
        stuck_since: dict[int, float] = {}
        while time.monotonic() < deadline:
            unsettled = []
            for phone in self.phones:
                state = self.state(phone)
                if state is None and not self.on_game(phone):
                    self.reload(phone)
                    unsettled.append(phone.name)
                    continue
                if not state or not (state["pending"] or state["withdraw"] or state["blocked"]):
                    continue
                unsettled.append(phone.name)
                if state["blocked"] and self.panel(phone):
                    self.answer(phone)
                    continue
                since = stuck_since.setdefault(phone.index, time.monotonic())
                if time.monotonic() - since > 25:  # nothing moves: the person reloads the page
                    stuck_since[phone.index] = time.monotonic()
                    self.reload(phone)
            if not unsettled:
                break
            time.sleep(1)
        return [f"{name} did not settle in {SETTLE_S} s" for name in unsettled]

    def check(self) -> list[str]:
        from scorekeeper.rules import load_record, replay
        from scorekeeper.words.labels import signed

        violations: list[str] = []
        base = f"http://127.0.0.1:{self.servers[0].port}"
        with urllib.request.urlopen(base + self.game + "/export.json", timeout=10) as r:
            exported = r.read()
        with tempfile.NamedTemporaryFile("wb", suffix=".json", delete=False) as out:
            out.write(exported)
        checked = subprocess.run(
            [sys.executable, "-m", "scorekeeper.cli", "check", out.name],
            capture_output=True, text=True, cwd=str(ROOT),
            env=bench_env(self.instance, self.options.postgres),
        )  # fmt: skip
        os.unlink(out.name)
        if checked.returncode != 0:
            violations.append(f"(a) the export fails check: {checked.stdout[-300:]}")
        totals = [signed(total) for total in replay(load_record(exported.decode()).game).totals]
        deals, entries = self.stored()
        keys = [e["key"] for e in entries]
        twice = {k for k in keys if keys.count(k) > 1}
        if twice:
            violations.append(f"(b) keys stored twice: {sorted(twice)}")
        standing = self.standing()

        def root(key: str) -> str:
            while key in self.lineage:
                key = self.lineage[key]
            return key

        for new_key in standing:  # a key not seen: entered again by "next" (found by its deal)
            if new_key in self.lineage or any(new_key in p.shown for p in self.phones):
                continue
            stored_deal = next(e["deal"] for e in entries if e["key"] == new_key)
            for old, deal in self.kept_at_next:
                if deal == stored_deal and old != new_key:
                    self.lineage[new_key] = old
                    break
            else:
                self.notes.append(f"stored but never shown saved by a phone: {new_key}")
        roots: dict[str, list[str]] = {}
        for key in standing:
            roots.setdefault(root(key), []).append(key)
        for first, stored_keys in roots.items():
            if len(stored_keys) > 1:
                numbers = [standing[k] for k in stored_keys]
                violations.append(
                    f"(b) one entry ({first}) stands twice: deals {numbers} (keys {stored_keys})"
                )
        removed = {root(k): why for p in self.phones for k, why in p.removed.items()}
        stands = {root(k) for k in standing}
        for phone in self.phones:
            for key, said in phone.shown.items():
                first = root(key)
                if first in removed and first in stands:
                    violations.append(
                        f"(c) {phone.name}: {key} ({said}) was {removed[first]} by a person"
                        " but stands in the game"
                    )
                elif first not in removed and first not in stands:
                    ever = next((e for e in entries if root(e["key"]) == first), None)
                    violations.append(
                        f"(c) {phone.name}: {key} shown {said} is not in the game"
                        + (f" (stored as deal {ever['number']}, no longer standing)" if ever else
                           " (never stored)")
                    )  # fmt: skip
        for phone in self.phones:
            try:
                phone.page.goto(phone.base + self.game, wait_until="load")
                phone.page.locator("#kept").wait_for(state="hidden", timeout=30_000)
                self.idle(phone)
                shown = [
                    t.strip()
                    for t in phone.page.locator("#scoreboard .totals .total").all_inner_texts()
                ]
            except Exception as error:
                shown = [f"({type(error).__name__})"]
            if shown != totals:
                violations.append(f"(d) {phone.name} shows {shown}, the server {totals}")
        self.notes.append(f"{len(deals)} deals stored, {len(entries)} entries")
        return violations

    # --- the whole scenario -------------------------------------------------------------------

    def run(self, steps: int, instance: str) -> list[str]:
        self.instance = instance
        count = 2 if self.options.postgres else 1
        self.servers = [
            Server(instance, port, self.options.postgres) for port in self.options.ports[:count]
        ]
        for server in self.servers:
            server.start()
        try:
            self.phones = [self.open_phone(i) for i in range(self.options.phones)]
            self.start_game(self.phones[0])
            for phone in self.phones[1:]:
                phone.page.goto(phone.base + self.game)
            for phone in self.phones:
                if not self.ready(phone, ENGINE_WAIT_MS):
                    self.notes.append(f"{phone.name}: the engine was not ready at the start")
            self.run_steps(steps)
            violations = self.settle()
            violations += self.check()
            errors = [f"{p.name}: {e}" for p in self.phones for e in p.errors]
            self.notes += errors[-12:]
            return violations
        finally:
            for phone in self.phones:
                with contextlib.suppress(Exception):
                    phone.context.close()
            for server in self.servers:
                server.stop()


def launch(playwright: Any, plain_http: bool) -> Any:
    args = list(CHROMIUM_ARGS)
    if plain_http:
        args.append(f"--host-resolver-rules=MAP {LAN_HOST} 127.0.0.1")
    return playwright.chromium.launch(executable_path=CHROMIUM, args=args, headless=True)


def scenario(browser: Any, seed: int, options: argparse.Namespace) -> tuple[list[str], Scenario]:
    """Run one seeded scenario on a fresh instance (a database of its own); its violations."""
    host = LAN_HOST if options.plain_http else "127.0.0.1"
    made = Scenario(browser, seed, options, host)
    with temp_instance() as instance:
        if not options.postgres:
            init_db(instance)
        try:
            return made.run(options.steps, instance), made
        except Exception as error:
            made.notes.append(f"the driver stopped: {type(error).__name__}: {error}")
            raise


def parse_seeds(text: str) -> list[int]:
    seeds: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        seeds += list(range(int(first), int(last or first) + 1))
    return seeds


def options_from(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1-10")
    parser.add_argument("--phones", type=int, choices=(2, 3), default=3)
    parser.add_argument("--steps", type=int, default=24)
    parser.add_argument("--plain-http", action="store_true")
    parser.add_argument("--postgres", metavar="URL", default=None)
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--verbose", action="store_true", help="print every scenario's steps")
    options = parser.parse_args(argv)
    if options.smoke:
        options.seeds, options.phones, options.steps = "1", 2, 5
    options.ports = [free_port(), free_port()]
    return options


def main(argv: list[str]) -> int:
    from playwright.sync_api import sync_playwright

    options = options_from(argv)
    if options.postgres:
        init_db(tempfile.mkdtemp(prefix="scorekeeper-chaos-"), options.postgres)
    total = crashed = 0
    seeds = parse_seeds(options.seeds)
    with sync_playwright() as playwright:
        browser = launch(playwright, options.plain_http)
        for seed in seeds:
            started = time.monotonic()
            try:
                violations, made = scenario(browser, seed, options)
            except Exception as error:  # the driver's own failure: said, and the next seed
                if options.smoke:
                    raise
                crashed += 1
                print(f"seed {seed}: the driver failed: {type(error).__name__}: {error}"[:400])
                continue
            total += len(violations)
            print(
                f"seed {seed}: {len(made.steps)} steps, {len(violations)} violations"
                f" ({time.monotonic() - started:.0f} s)",
                flush=True,
            )
            if violations or options.verbose:
                for line in made.steps:
                    print(f"    {line}")
                for line in made.notes:
                    print(f"    note: {line}")
            for line in violations:
                print(f"  VIOLATION {line}", flush=True)
        browser.close()
    mode = "plain HTTP" if options.plain_http else "PostgreSQL" if options.postgres else "SQLite"
    print(
        f"{len(seeds) - crashed} scenarios, {total} violations ({mode}, {options.phones} phones)"
        + (f"; the driver failed in {crashed} more" if crashed else "")
    )
    log(f"chaos: {len(seeds)} scenarios, {total} violations")
    return 1 if (total or crashed) and not options.smoke else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

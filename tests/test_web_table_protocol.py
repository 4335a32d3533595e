"""The web table's protocol, through Starlette's test client: seats and turns,
refusals, hidden cards, limits, and tables surviving a restart."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import spades_core as sc
from spades_core.rules.hooks import score_breakdown
from web_table_support import assert_nothing_hidden, server

pytestmark = pytest.mark.integration("web")

Socket = Any  # starlette.testclient.WebSocketTestSession
FOUR_PEOPLE = {"N": "person", "E": "person", "W": "person"}
EASY_BOTS = {"N": "easy", "E": "easy", "W": "easy"}


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "tables"


@pytest.fixture
def client(data: Path) -> Iterator[TestClient]:
    with TestClient(server.create_app(data, bot_delay=0)) as test_client:
        yield test_client


def open_table(client: TestClient, variant: str, players: dict[str, str], **more: Any) -> str:
    """Open a table as its host; return the host's path (``/t/ID?token=…``)."""
    response = client.post("/api/tables", json={"variant": variant, "players": players, **more})
    assert response.status_code == 200, response.text
    url: str = response.json()["url"]
    return url


def socket_path(url: str, token: str | None = None) -> str:
    parts = urlsplit(url)
    table_id = parts.path.rsplit("/", 1)[-1]
    if token is None:
        token = parse_qs(parts.query)["token"][0]
    return f"/ws/{table_id}?token={token}"


def table_of(client: TestClient, url: str) -> Any:
    return client.app.state.tables.by_id[urlsplit(url).path.rsplit("/", 1)[-1]]  # type: ignore[attr-defined]


def settled(table: Any) -> sc.Game:
    """The table's game once the bots and the dealer have nothing left to do:
    a person is to act, or to ask for the next hand."""
    deadline = time.monotonic() + 30
    while True:
        game: sc.Game = table.game
        waiting_for_person = game.to_act is not None and table.bot_for(game.to_act) is None
        if game.phase is sc.Phase.DEAL:
            waiting_for_person = bool(table.waiting_for_next())
        if game.is_over or waiting_for_person:
            return game
        assert time.monotonic() < deadline, f"the table never settled: {game!r}"
        time.sleep(0.005)


def moved_on(table: Any, game: sc.Game) -> None:
    """Wait until the table has taken the action just sent (its game is no longer ``game``)."""
    deadline = time.monotonic() + 30
    while table.game is game:
        assert time.monotonic() < deadline, "the action was never taken"
        time.sleep(0.002)


def progress(state: dict[str, Any]) -> tuple[object, ...]:
    played = sum(len(t["cards"]) for t in state["tricks"]) + len(state["current_trick"])
    bids = sum(bid is not None for bid in state["bids"].values())
    return (state["hand_number"], state["phase"], bids, played)


def game_progress(game: sc.Game) -> tuple[object, ...]:
    played = sum(len(t.cards) for t in game.tricks) + len(game.current_trick)
    made = sum(bid is not None for bid in game.bids.values_)
    return (game.hand_number, game.phase.name, made, played)


def read_until_current(ws: Socket, table: Any, seat: sc.Seat) -> dict[str, Any]:
    """Read ``seat``'s messages up to the state of the settled game, checking
    every one of them for hidden cards."""
    game = settled(table)
    while True:
        message = ws.receive_json()
        if message["type"] != "state":
            continue
        assert_nothing_hidden(message, game, seat)
        if progress(message) == game_progress(game):
            return dict(message)


def read_error(ws: Socket, table: Any, seat: sc.Seat) -> str:
    """Read ``seat``'s messages up to the next refusal; return its text."""
    while True:
        message = ws.receive_json()
        if message["type"] == "error":
            text: str = message["message"]
            return text
        assert_nothing_hidden(message, settled(table), seat)


def action_message(action: object) -> dict[str, Any]:
    if isinstance(action, int):
        return {"type": "bid", "value": action}
    return {"type": "play", "card": action}


def test_four_people_play_a_hand_in_turn_and_each_sees_only_its_own_cards(
    client: TestClient, data: Path
) -> None:
    url = open_table(client, "classic", FOUR_PEOPLE, coach=True)
    table = table_of(client, url)
    with ExitStack() as stack:
        host = stack.enter_context(client.websocket_connect(socket_path(url)))
        first = read_until_current(host, table, sc.Seat.SOUTH)
        assert sorted(first["invites"]) == ["E", "N", "W", "watch"]
        sockets = {sc.Seat.SOUTH: host}
        for letter, token in first["invites"].items():
            if letter == "watch":
                continue
            seat = sc.Seat.parse(letter)
            sockets[seat] = stack.enter_context(client.websocket_connect(socket_path(url, token)))
        previous: tuple[sc.Seat, sc.Game] | None = None
        refusals = 0
        while not table.game.hand_results:
            game = settled(table)
            states = {seat: read_until_current(ws, table, seat) for seat, ws in sockets.items()}
            to_act = game.to_act
            assert to_act is not None
            for seat, state in states.items():
                assert state["hand"] == [str(card) for card in game.hand(seat)]
                assert state["to_act"] == to_act.letter
                assert "invites" in state if seat is sc.Seat.SOUTH else "invites" not in state
                if seat is to_act:
                    assert state["legal_actions"] == game.view(seat).to_dict()["legal_actions"]
                    assert state["coach"]["action"] in state["legal_actions"]
                else:
                    assert state["legal_actions"] == []
                    assert state["coach"] is None
            if previous is not None:  # turn order: clockwise, and a trick's winner leads
                actor, before = previous
                if game.tricks and len(game.tricks) > len(before.tricks):
                    assert to_act is game.tricks[-1].winner
                else:
                    assert to_act is actor.next
            if len(game.current_trick) in (0, 2) and refusals < 8:
                # Another seat acting out of turn is refused and changes nothing.
                other = to_act.next
                record = (data / f"{table.id}.record.json").read_bytes()
                attempt = (
                    {"type": "bid", "value": 3}
                    if game.phase is sc.Phase.BID
                    else {"type": "play", "card": str(next(iter(game.hand(other))))}
                )
                sockets[other].send_json(attempt)
                assert "turn" in read_error(sockets[other], table, other)
                assert table.game is game
                assert (data / f"{table.id}.record.json").read_bytes() == record
                refusals += 1
            chosen = states[to_act]["legal_actions"][-1]
            sockets[to_act].send_json(action_message(chosen))
            moved_on(table, game)
            previous = (to_act, game)
        game = settled(table)
        for seat, ws in sockets.items():
            state = read_until_current(ws, table, seat)
            assert state["hand_results"][0]["scores"] == {
                team.name: game.hand_results[0].scores[team] for team in sc.Team
            }
        assert refusals == 8
    # With everyone gone, nobody is left to ask for the next hand: it is dealt.
    after = settled(table)
    assert after.hand_number == 1
    # A table of bots alone saves its record in the background: it catches up.
    deadline = time.monotonic() + 30
    while sc.loads((data / f"{table.id}.record.json").read_text()) != after:
        assert time.monotonic() < deadline, "the record never caught up with the table"
        time.sleep(0.01)


MALFORMED = [
    "not json",
    "[]",
    "null",
    '"play"',
    "{}",
    '{"type": "deal"}',
    '{"type": "bid"}',
    '{"type": "bid", "value": "3"}',
    '{"type": "bid", "value": true}',
    '{"type": "bid", "value": 3.0}',
    '{"type": "bid", "value": 1e999}',
    '{"type": "bid", "value": 14}',
    '{"type": "bid", "value": -1}',
    '{"type": "bid", "value": ' + "9" * 400 + "}",
    '{"type": "play", "card": "ZZ"}',
    '{"type": "play", "card": ["QH"]}',
    '{"type": "play", "card": "QH"}',  # a card, but bidding is on
    "[" * 300 + "]" * 300,
    '{"type": "play", "card": "' + "Q" * 600 + '"}',
]


def test_malformed_and_hostile_messages_get_an_error_and_change_nothing(
    client: TestClient, data: Path
) -> None:
    url = open_table(client, "mirror", EASY_BOTS, coach=False)
    table = table_of(client, url)
    with client.websocket_connect(socket_path(url)) as ws:
        state = read_until_current(ws, table, sc.Seat.SOUTH)
        assert state["legal_actions"]
        assert state["coach"] is None  # the host switched the coach off
        game = table.game
        record = (data / f"{table.id}.record.json").read_bytes()
        for text in MALFORMED:
            ws.send_text(text)
            assert read_error(ws, table, sc.Seat.SOUTH), text
        ws.send_bytes(b"\x00\xff binary")
        assert "text" in read_error(ws, table, sc.Seat.SOUTH)
        assert table.game is game
        assert (data / f"{table.id}.record.json").read_bytes() == record
        # The connection still works: the one legal (forced) Mirror bid is taken.
        (bid,) = state["legal_actions"]
        ws.send_json({"type": "bid", "value": bid})
        moved_on(table, game)
        after = read_until_current(ws, table, sc.Seat.SOUTH)
        assert after["bids"]["S"] == bid


def collect_refusals(ws: Socket, refusals: list[str]) -> None:
    """Keep every refusal ``ws`` receives, until the server closes it."""
    while True:
        message = ws.receive_json()
        if message["type"] == "error":
            refusals.append(message["message"])


def test_a_flooding_client_is_cut_off_and_other_tables_play_on(client: TestClient) -> None:
    calm_url = open_table(client, "mirror", EASY_BOTS)
    calm = table_of(client, calm_url)
    loud_url = open_table(client, "classic", EASY_BOTS)
    loud = table_of(client, loud_url)
    with client.websocket_connect(socket_path(calm_url)) as calm_ws:
        state = read_until_current(calm_ws, calm, sc.Seat.SOUTH)
        with client.websocket_connect(socket_path(loud_url)) as loud_ws:
            read_until_current(loud_ws, loud, sc.Seat.SOUTH)
            before = loud.game
            for _ in range(200):
                loud_ws.send_text('{"type": "bid", "value": 99}')
            refusals: list[str] = []
            with pytest.raises(WebSocketDisconnect) as closed:
                collect_refusals(loud_ws, refusals)
            assert closed.value.code == 1008
            assert "too many messages; wait a moment" in refusals
        assert loud.game is before
        (bid,) = state["legal_actions"]
        game = calm.game
        calm_ws.send_json({"type": "bid", "value": bid})
        moved_on(calm, game)
        assert read_until_current(calm_ws, calm, sc.Seat.SOUTH)["bids"]["S"] == bid


def test_strangers_and_spectators_cannot_act(client: TestClient) -> None:
    url = open_table(client, "classic", EASY_BOTS)
    with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws/..%2F..?token=x"):
        pass  # no such route: the socket is never accepted
    for path in (
        socket_path(url, "not-a-token"),
        socket_path(url, ""),
        "/ws/nosuchtable00?token=x",
    ):
        with client.websocket_connect(path) as ws:
            assert ws.receive_json() == {"type": "error", "message": "no such table or seat"}
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1008
    # South left to a bot: the host opens the table as a spectator, who sees
    # no hand and may not act.
    watched = open_table(client, "classic", {**EASY_BOTS, "S": "easy"})
    table = table_of(client, watched)
    assert parse_qs(urlsplit(watched).query)["token"] == [table.tokens[None]]
    with client.websocket_connect(socket_path(watched)) as ws:
        ws.send_json({"type": "bid", "value": 1})
        while (message := ws.receive_json())["type"] != "error":
            assert message["seat"] is None
        assert message["message"] == "a spectator may not act"
        while (message := ws.receive_json())["phase"] != "PLAY":
            assert message["hand"] == []
            assert "invites" not in message
        assert message["bids"]["S"] is not None  # South's bot bid
        assert message["players"]["S"] == {"kind": "easy", "online": False, "level": "Easy"}


def east_actions(game: sc.Game) -> int:
    """How many times East has acted in the game so far."""
    plays = [seat for trick in game.tricks for seat, _ in trick.plays]
    plays += [seat for seat, _ in game.current_trick]
    east_bid = game.bids[sc.Seat.EAST] is not None
    return 14 * len(game.hand_results) + east_bid + plays.count(sc.Seat.EAST)


def test_a_friend_takes_a_bots_seat_by_its_link_and_the_bot_plays_on_after(
    client: TestClient,
) -> None:
    url = open_table(client, "classic", EASY_BOTS)
    table = table_of(client, url)

    def host_acts_until(done: Any) -> None:
        while not done(game := settled(table)):
            assert game.to_act is sc.Seat.SOUTH
            state = read_until_current(host, table, sc.Seat.SOUTH)
            host.send_json(action_message(state["legal_actions"][0]))
            moved_on(table, game)

    with client.websocket_connect(socket_path(url)) as host:
        invites = read_until_current(host, table, sc.Seat.SOUTH)["invites"]
        with client.websocket_connect(socket_path(url, invites["E"])) as east:
            # While the friend holds East, East's bot never moves: the game waits for them.
            host_acts_until(lambda game: game.to_act is sc.Seat.EAST)
            state = read_until_current(east, table, sc.Seat.EAST)
            assert state["seat"] == "E"
            assert state["players"]["E"]["kind"] == "you"
            assert "invites" not in state
            before = east_actions(table.game)
            game = table.game
            east.send_json(action_message(state["legal_actions"][0]))
            moved_on(table, game)
            assert east_actions(table.game) == before + 1
        # The friend left: East's bot plays the seat again.
        host_acts_until(lambda game: east_actions(game) >= before + 2)


def test_a_game_against_bots_runs_to_its_end_with_a_coach_tip_at_every_turn(
    client: TestClient,
) -> None:
    url = open_table(client, "whiz", EASY_BOTS, options={"target_score": 120})
    table = table_of(client, url)
    tips = 0
    with client.websocket_connect(socket_path(url)) as ws:
        answered: set[tuple[object, ...]] = set()
        while True:
            message = ws.receive_json()
            assert message["type"] == "state", message
            if message["phase"] == "GAME_OVER":
                break
            if message["phase"] == "DEAL" and message["waiting_for_next"] == ["S"]:
                ws.send_json({"type": "next"})  # South has seen the hand's end
                continue
            if message["to_act"] == "S" and progress(message) not in answered:
                tip = message["coach"]
                assert tip["action"] in message["legal_actions"]
                assert tip["reason"]
                ws.send_json(action_message(tip["action"]))
                answered.add(progress(message))
                tips += 1
    game = table.game
    assert game.is_over
    assert message["options"] == {"target_score": 120}
    assert message["winner"] == game.winner.name
    assert len(message["hand_results"]) == len(game.hand_results)
    assert tips == sum(
        1 + sum(seat is sc.Seat.SOUTH for trick in r.played for seat, _ in trick.plays)
        for r in game.hand_results
    )


def test_a_restarted_server_restores_every_table_and_a_browser_resumes_its_seat(
    data: Path,
) -> None:
    with TestClient(server.create_app(data, bot_delay=0)) as client:
        classic = open_table(client, "classic", {"N": "person", "E": "easy", "W": "easy"})
        mirror = open_table(client, "mirror", EASY_BOTS)
        table = table_of(client, classic)
        with client.websocket_connect(socket_path(classic)) as ws:
            state = read_until_current(ws, table, sc.Seat.SOUTH)
            partner_token = state["invites"]["N"]
            while (game := settled(table)).to_act is sc.Seat.SOUTH:
                ws.send_json(action_message(state["legal_actions"][0]))
                moved_on(table, game)
                state = read_until_current(ws, table, sc.Seat.SOUTH)
        before = {url: settled(table_of(client, url)) for url in (classic, mirror)}
        last_state = state
    with TestClient(server.create_app(data, bot_delay=0)) as client:
        for url, game in before.items():
            assert table_of(client, url).game == game
        table = table_of(client, classic)
        with client.websocket_connect(socket_path(classic)) as ws:
            resumed = read_until_current(ws, table, sc.Seat.SOUTH)
            assert {k: v for k, v in resumed.items() if k != "players"} == {
                k: v for k, v in last_state.items() if k != "players"
            }
        with client.websocket_connect(socket_path(classic, partner_token)) as ws:
            partner = read_until_current(ws, table, sc.Seat.NORTH)
            assert partner["seat"] == "N"
            assert partner["hand"] == [str(card) for card in table.game.hand(sc.Seat.NORTH)]
            game = table.game
            assert game.to_act is sc.Seat.NORTH
            ws.send_json(action_message(partner["legal_actions"][0]))
            moved_on(table, game)
            moved = read_until_current(ws, table, sc.Seat.NORTH)
            assert progress(moved) != progress(partner)
            saved = sc.loads((data / f"{table.id}.record.json").read_text())
            assert saved == table.game


def test_a_broken_file_does_not_stop_the_others_from_loading(data: Path) -> None:
    with TestClient(server.create_app(data, bot_delay=0)) as client:
        url = open_table(client, "classic", EASY_BOTS)
        kept = settled(table_of(client, url))
    (data / "BrokenTable1.table.json").write_text("{}")
    (data / "BrokenTable1.record.json").write_text("{not json")
    (data / "NoRecord0000.table.json").write_text(json.dumps({"players": {}}))
    with TestClient(server.create_app(data, bot_delay=0)) as client:
        tables = client.app.state.tables.by_id  # type: ignore[attr-defined]
        assert list(tables) == [urlsplit(url).path.rsplit("/", 1)[-1]]
        assert next(iter(tables.values())).game == kept
    assert not list(data.glob("*.tmp"))
    assert not list(data.glob(".*.tmp"))


def test_the_start_page_offers_every_installed_variant_with_its_options(
    client: TestClient,
) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert 'id="new-table"' in page.text
    offered = client.get("/api/variants").json()
    assert [v["id"] for v in offered["variants"]] == list(sc.available_variants())
    assert offered["levels"] == list(sc.bots.LEVELS)
    for entry in offered["variants"]:
        variant = sc.load_variant(entry["id"])
        assert [o["name"] for o in entry["options"]] == list(variant.option_specs)
        for option in entry["options"]:
            assert (
                variant.rules(**{option["name"]: option["default"]}).get(option["name"])
                == variant.defaults[option["name"]]
            )
    classic = next(v for v in offered["variants"] if v["id"] == "classic")
    cap = next(o for o in classic["options"] if o["name"] == "max_team_bid")
    assert (cap["kind"], cap["default"], cap["nullable"]) == ("int", 13, True)
    lead = next(o for o in classic["options"] if o["name"] == "first_lead")
    assert lead["kind"] == "choice"
    assert "two_of_clubs" in lead["choices"]


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"variant": "nosuch"}, "variant 'nosuch' is not installed"),
        ({"variant": "classic", "options": {"target_score": "x"}}, "Points to win: a whole number"),
        ({"variant": "classic", "options": {"target_score": 0}}, "0 is not one"),
        ({"variant": "classic", "options": {"seed": 1}}, "unknown option 'seed'"),
        ({"variant": "mirror", "options": {"max_team_bid": 9}}, "does not apply"),
        ({"variant": "classic", "options": []}, "options must be a JSON object"),
        ({"variant": "classic", "players": {"N": "wizard"}}, "seat N takes"),
        ({"variant": "classic", "players": "all bots"}, "players must be"),
        ({"variant": "classic", "coach": "yes"}, "coach must be true or false"),
        (["classic"], "JSON object"),
    ],
)
def test_bad_table_settings_are_refused_with_the_reason(
    client: TestClient, data: Path, settings: object, words: str
) -> None:
    response = client.post("/api/tables", json=settings)
    assert response.status_code == 400
    assert words in response.json()["error"]
    assert not list(data.glob("*.json"))


def test_oversized_or_unparsable_requests_are_refused(client: TestClient, data: Path) -> None:
    big = json.dumps({"variant": "classic", "pad": "x" * 20_000})
    response = client.post("/api/tables", content=big, headers={"content-type": "application/json"})
    assert response.status_code == 413
    response = client.post(
        "/api/tables", content=b"{nope", headers={"content-type": "application/json"}
    )
    assert response.status_code == 400
    assert client.get("/t/nosuchtable00").status_code == 404
    assert not list(data.glob("*.json"))


def _table(tmp_path: Path, game: sc.Game) -> Any:
    seating = {
        "players": {seat.letter: "person" for seat in sc.Seat},
        "tokens": {seat.letter: seat.name for seat in sc.Seat},
        "coach": True,
    }
    return server.Table("Crafted0001", game, seating, server.TableStore(tmp_path), 0.0)


def test_the_bid_note_explains_mirrors_forced_bid_and_classics_team_cap(tmp_path: Path) -> None:
    mirror = sc.new_game("mirror", seed=3).deal()
    seat = mirror.to_act
    assert seat is not None
    state = _table(tmp_path, mirror).state_for(seat)
    spades = mirror.hand(seat).count(sc.Suit.SPADES)
    assert state["legal_actions"] == [spades]
    assert state["bid_note"] == mirror.explain_bids()
    assert state["bid_note"].startswith("In Mirror Spades your bid is your spade count")
    assert state["bid_note"].endswith(f"so you must bid {spades or 'Nil'}.")
    assert _table(tmp_path, mirror).state_for(seat.next)["bid_note"] is None

    classic = sc.new_game("classic", seed=3).deal()
    first = classic.to_act
    assert first is not None
    classic = classic.bid(10).bid(1)
    state = _table(tmp_path, classic).state_for(first.partner)
    assert state["legal_actions"] == [0, 1, 2, 3]
    assert state["bid_note"] == (
        "In Classic Spades a partnership's bids may total at most 13, and your partner bid 10, "
        "so you may bid Nil or 1-3."
    )
    opening = _table(tmp_path, sc.new_game("classic", seed=3).deal()).state_for(first)
    assert opening["bid_note"] is None


def test_after_a_hand_the_next_is_dealt_once_every_person_at_the_table_asks(
    client: TestClient,
) -> None:
    url = open_table(client, "mirror", {"N": "person", "E": "easy", "W": "easy"})
    table = table_of(client, url)
    with client.websocket_connect(socket_path(url)) as host:
        token = read_until_current(host, table, sc.Seat.SOUTH)["invites"]["N"]
        with client.websocket_connect(socket_path(url, token)) as partner:
            sockets = {sc.Seat.SOUTH: host, sc.Seat.NORTH: partner}
            while not (game := settled(table)).hand_results:
                states = {seat: read_until_current(ws, table, seat) for seat, ws in sockets.items()}
                seat = game.to_act
                assert seat in sockets
                sockets[seat].send_json(action_message(states[seat]["legal_actions"][0]))
                moved_on(table, game)
            # Both people see the hand's end and who is still to ask for the next.
            scored = settled(table)
            for seat, ws in sockets.items():
                state = read_until_current(ws, table, seat)
                assert state["phase"] == "DEAL"
                assert state["waiting_for_next"] == ["N", "S"]
                assert state["hand_summary"]["teams"] == score_breakdown(scored).summary()
            host.send_json({"type": "next"})
            while (state := read_until_current(partner, table, sc.Seat.NORTH))[
                "waiting_for_next"
            ] != ["N"]:
                pass
            assert table.game is scored  # North has not asked yet
            host.send_json({"type": "next"})
            assert read_error(host, table, sc.Seat.SOUTH) == (
                "you have asked for the next hand already"
            )
            partner.send_json({"type": "next"})
            moved_on(table, scored)
            dealt = settled(table)
            assert dealt.hand_number == 1
            assert dealt.phase is sc.Phase.BID
            mid_hand = read_until_current(host, table, sc.Seat.SOUTH)
            assert mid_hand["hand_summary"] is None
            assert mid_hand["waiting_for_next"] == []
            if dealt.to_act in sockets:
                ws = sockets[dealt.to_act]
                ws.send_json({"type": "next"})
                assert "still being played" in read_error(ws, table, dealt.to_act)

"""The club's «Своя игра» tours in the web app: the register, a tour of 8 teams played to its final, the league table
and ratings (SI-2.1, SI-2.2, SI-4.1, SI-5, SI-6). Games are played through their rooms' owners (the host's commands),
and their results reach the tour by themselves, from the rooms' ends."""

from __future__ import annotations

import html
import re
from collections.abc import Awaitable, Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest
from starlette.testclient import TestClient

from toreshi.kit.core import Actor
from toreshi.kit.refusal import Refusal
from toreshi.live.room import Command
from toreshi.quiz.codes import QuizCode
from toreshi.texts import i18n, refusals
from toreshi.web.app import create_app
from toreshi.web.common.settings import Settings

from .helpers import csrf_in, csv_rows, sign_in
from .quiz_driver import play_game
from .test_quiz_pages import create_quiz

T = TypeVar("T")
TEAMS = ("Алтын", "Барыс", "Сұңқар", "Тұлпар", "Жолбарыс", "Қыран", "Арлан", "Бүркіт")


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(data_dir=tmp_path)), headers={"accept-language": "ru"}) as client:
        yield client


def on_app(client: TestClient, function: Callable[..., Awaitable[T]], *args: Any) -> T:
    """Run a coroutine on the app's own event loop (where its store and rooms live)."""
    portal = client.portal
    assert portal is not None
    return portal.call(function, *args)


def register(client: TestClient) -> None:
    lines = ["name,players,contact,active"] + [f"{t},{t} Бірінші;{t} Екінші,+7 700 000 00 0{i},yes" for i, t in
                                                enumerate(TEAMS)]  # fmt: skip
    token = csrf_in(client.get("/quiz/teams").text)
    page = client.post("/quiz/teams", data={"csrf": token, "csv_text": "\n".join(lines)})
    assert "8" in page.text and page.status_code == 200


def create_tour(client: TestClient, shared_data: Path) -> str:
    token = csrf_in(client.get("/quiz/tours/new").text)
    packs = [("pack", (name, (shared_data / "quiz" / "siq" / name).read_bytes())) for name in ("1.siq", "2.1.siq")]
    form: dict[str, Any] = {"csrf": token, "name": "Тур 1", "date": "2026-12-01", "stages": "1", "advance1": "2",
                            "best1": "0", "scoring": "battle_points", "final": "on", "team": list(TEAMS)}  # fmt: skip
    response = client.post("/quiz/tours/new", data=form, files=packs, follow_redirects=False)
    assert response.status_code == 303, response.text
    return str(response.headers["location"]).rsplit("/", 1)[-1]


def tour_with_rooms(web: TestClient, shared_data: Path) -> tuple[str, Any]:
    """The arbiter signed in, the 8 teams registered, a tour seeded by hand into two games of 4 and its rooms made;
    the tour's id and the app's services."""
    sign_in(web)
    register(web)
    tour = create_tour(web, shared_data)
    post(web, tour, "seed", method="hand", games="Алтын, Барыс, Сұңқар, Тұлпар\nЖолбарыс, Қыран, Арлан, Бүркіт")
    post(web, tour, "rooms")
    return tour, web.app.state.services  # type: ignore[attr-defined]


def post(client: TestClient, tour: str, action: str, **data: Any) -> str:
    token = csrf_in(client.get(f"/quiz/tours/{tour}").text)
    return client.post(f"/quiz/tours/{tour}/{action}", data={"csrf": token, **data}).text


def test_the_register_imports_csv_and_a_team_page_shows_it(web: TestClient) -> None:
    sign_in(web)
    register(web)
    page = web.get("/quiz/teams").text
    assert all(team in page for team in TEAMS)
    assert "Алтын Бірінші, Алтын Екінші" in page
    team_id = page.split('href="/quiz/teams/')[1].split('"')[0]
    assert "Лига" in web.get(f"/quiz/teams/{team_id}").text or "League" in web.get(f"/quiz/teams/{team_id}").text


def test_the_formula_changes_until_the_first_game_and_bad_ones_are_refused(web: TestClient, shared_data: Path) -> None:
    sign_in(web)
    register(web)
    tour = create_tour(web, shared_data)
    page = post(web, tour, "formula", stages="1", advance1="3", best1="0", scoring="battle_points", final="on")
    assert 'role="alert"' in page  # 6 teams cannot play one final game of at most 4
    page = post(web, tour, "formula", stages="1", advance1="1", best1="2", scoring="raw_score", final="on")
    assert 'role="alert"' not in page and "+ 2" in page
    page = post(web, tour, "seed", method="hand", games="Алтын, Барыс, Сұңқар, Тұлпар\nЖолбарыс, Қыран, Арлан, Бүркіт")
    page = post(web, tour, "rooms")
    assert page.count("/host") >= 2
    page = post(web, tour, "formula", stages="1", advance1="2", best1="0", scoring="battle_points", final="on")
    assert 'role="alert"' in page  # started: the formula is fixed (SI-2.1)


def test_a_tour_of_8_teams_with_a_shootout_and_a_final_reaches_the_league_table(
    web: TestClient, shared_data: Path
) -> None:
    sign_in(web)
    register(web)
    tour = create_tour(web, shared_data)
    services = web.app.state.services  # type: ignore[attr-defined]
    service = services.quiz_tours
    post(web, tour, "seed", method="hand", games="Алтын, Барыс, Сұңқар, Тұлпар\nЖолбарыс, Қыран, Арлан, Бүркіт")
    page = post(web, tour, "rooms")
    state = on_app(web, service.state, tour)
    first, second = state.links
    assert first.teams == TEAMS[:4] and first.assistant_team not in first.teams  # SI-4.1
    assert (first.theme_start, second.theme_start) == (0, 6)  # no theme twice in a tour
    # Алтын 45, Барыс 15, Сұңқар 15, Тұлпар 0: Барыс and Сұңқар tie across the second advancing place.
    on_app(web, play_game, services.rooms, first.room_id, ["Алтын", "Алтын", "Алтын", "Барыс", "Сұңқар"])
    on_app(web, play_game, services.rooms, second.room_id, ["Жолбарыс", "Жолбарыс", "Қыран", "Қыран", "Арлан"])
    on_app(web, service.settled)
    state = on_app(web, service.state, tour)
    shootout = state.links[-1]
    assert shootout.kind.value == "shootout" and shootout.teams == ("Барыс", "Сұңқар")  # made by the push, SI-2.2
    assert shootout.theme_start == 12 and shootout.scores is None
    page = web.get(f"/quiz/tours/{tour}").text
    assert "Перестрелка" in page and "Барыс, Сұңқар" in page
    outcome = web.get(f"/api/quiz/{first.room_id}/tour").json()["teams"]  # what the projector shows at the end
    assert {team: o["code"] for team, o in outcome.items()} == {
        "Алтын": "advances", "Барыс": "shootout", "Сұңқар": "shootout", "Тұлпар": "out"
    }  # fmt: skip
    assert outcome["Барыс"]["text"] == "играет перестрелку (SI-2.2)"
    on_app(web, play_game, services.rooms, shootout.room_id, ["Сұңқар"])
    on_app(web, service.settled)
    state = on_app(web, service.state, tour)
    assert state.tour.stages[0].advancing() == ("Алтын", "Сұңқар", "Жолбарыс", "Қыран")
    outcome = web.get(f"/api/quiz/{shootout.room_id}/tour").json()["teams"]
    assert {team: o["code"] for team, o in outcome.items()} == {"Барыс": "out", "Сұңқар": "advances"}
    page = web.get(f"/quiz/tours/{tour}").text
    assert page.count("прошла после перестрелки") == 1 and page.count("не прошла") == 4
    post(web, tour, "seed", method="rating")
    post(web, tour, "rooms")
    state = on_app(web, service.state, tour)
    final = state.links[-1]
    assert final.kind.value == "final" and set(final.teams) == {"Алтын", "Сұңқар", "Жолбарыс", "Қыран"}
    assert final.assistant_team not in final.teams and final.theme_start == 15
    order = sorted(final.teams, key=["Қыран", "Алтын", "Жолбарыс", "Сұңқар"].index)
    on_app(web, play_game, services.rooms, final.room_id, [order[0], order[0], order[1], order[2], order[3]])
    on_app(web, service.settled)
    state = on_app(web, service.state, tour)
    assert state.finished and state.tour.final_places()[0] == ("Қыран",)
    page = post(web, tour, "protest", room=final.room_id, team="Алтын", text="Вопрос 3 был неточен")
    assert "Вопрос 3 был неточен" in page
    state = on_app(web, service.state, tour)
    assert state.tour.final_places()[0] == ("Қыран",) and state.links[-1].scores == final_scores(state)
    kazakh = web.get(f"/quiz/tours/{tour}?lang=kk").text  # the log in the reader's language, no English left
    assert "Іріктеу ойыны" in kazakh and "рейтинг бойынша" in kazakh
    assert not any(word in kazakh for word in ("qualifying", "shootout ", " · hand", " · rating", "Stage "))
    team_id = web.get("/quiz/teams").text.split('href="/quiz/teams/')[1].split('"')[0]
    team_page = web.get(f"/quiz/teams/{team_id}?lang=ru").text
    assert "Очки лиги" in team_page and "История рейтинга" in team_page and "место " in team_page
    standings = csv_rows(web.get(f"/quiz/tours/{tour}/standings.csv"))
    assert ["tour", "1", "Қыран", "", "", "", "", ""] in standings
    league = web.get("/quiz/league").text
    assert league.index("Қыран") < league.index("Тұлпар")
    rows = csv_rows(web.get("/quiz/league.csv"))
    assert rows[1][:3] == ["1", "Қыран", "8"] and len(rows) == 9
    ratings = csv_rows(web.get("/quiz/ratings.csv"))
    assert len(ratings) == 9 and all(row[1] == "Тур 1" for row in ratings[1:])


def final_scores(state: Any) -> Any:
    return next(link.scores for link in state.links if link.kind.value == "final")


async def audience_and_correction(rooms: Any, room_id: str) -> None:
    owner = await rooms.get(room_id, "quiz")
    host = Actor("host", "Жүргізуші")
    await owner.handle(Command("warn", host, {"person": "Зритель в 3 ряду"}))
    await owner.handle(Command("sanction", host, {"person": "Зритель в 3 ряду", "scope": "round"}))


async def correct(rooms: Any, room_id: str, team: str) -> None:
    owner = await rooms.get(room_id, "quiz")
    await owner.handle(Command("correct", Actor("host", "Ж"), {"team": team, "delta": -2, "reason": "подсказка"}))


def test_the_report_shows_running_scores_press_times_host_tools_and_the_audience_and_exports_them(
    web: TestClient, shared_data: Path
) -> None:
    tour, services = tour_with_rooms(web, shared_data)
    room = on_app(web, services.quiz_tours.state, tour).links[0].room_id
    on_app(web, audience_and_correction, services.rooms, room)
    on_app(web, play_game, services.rooms, room, ["Алтын", "Барыс", "Сұңқар", "Тұлпар", "Алтын"])
    on_app(web, correct, services.rooms, room, "Барыс")
    report = web.get(f"/api/quiz/{room}/report").json()
    first, last = report["questions"][0], report["questions"][-1]
    assert first["chooser"] == "Алтын" and first["running"] == {"Алтын": 1, "Барыс": 0, "Сұңқар": 0, "Тұлпар": 0}
    assert last["running"] == {"Алтын": 30, "Барыс": 13, "Сұңқар": 15, "Тұлпар": 15} == report["scores"]
    assert [a["type"] for a in report["audience"]] == ["audience_warned", "audience_sanctioned"]
    page = web.get(f"/quiz/{room}/report").text
    assert "Зритель в 3 ряду: удалён до конца тура игр" in page and "Счёт после вопроса" in page
    assert "счёт исправлен" in page and "подсказка" in page
    assert f'href="/quiz/{room}/report.csv"' in page and f'href="/api/quiz/{room}/report"' in page
    tour_page = web.get(f"/quiz/tours/{tour}").text  # the tour's log keeps the game's audience sanctions too
    assert "Зритель в 3 ряду: удалён до конца тура игр (SI-4.5)" in tour_page
    rows = csv_rows(web.get(f"/quiz/{room}/report.csv"))
    assert rows[0] == [
        "Вопрос",
        "Тема",
        "Стоимость",
        "Выбрал",
        "Итог",
        "Нажатия",
        "Решения",
        "Ведущий",
        "Алтын",
        "Барыс",
        "Сұңқар",
        "Тұлпар",
    ]  # fmt: skip  (the reader's language, as the page)
    assert rows[1][3] == "Алтын" and rows[1][5].startswith("Алтын 0:0") and rows[1][8:] == ["1", "0", "0", "0"]
    # The audience's rulings (SI-4.5) sit under the header's columns: the question, and the ruling under "host".
    sanctioned = dict(zip(rows[0], rows[-1], strict=True))
    assert sanctioned["Ведущий"] == "Зритель в 3 ряду: удалён до конца тура игр" and sanctioned["Вопрос"] == ""
    assert sanctioned["Итог"] == sanctioned["Нажатия"] == sanctioned["Алтын"] == ""


def test_the_games_list_filters_by_live_finished_tour_and_archive_and_archives_a_finished_game(
    web: TestClient, shared_data: Path
) -> None:
    tour, services = tour_with_rooms(web, shared_data)
    first, second = on_app(web, services.quiz_tours.state, tour).links
    alone = create_quiz(web, shared_data / "quiz" / "siq" / "2.1.siq").headers["location"].split("/")[2]
    assert web.get("/quiz?filter=tour").text.count('class="game-item') == 2
    assert web.get("/quiz").text.count('class="game-item') == 3
    on_app(web, play_game, services.rooms, first.room_id, ["Алтын"] * 5)
    finished = web.get("/quiz?filter=finished").text
    assert f'href="/quiz/{first.room_id}"' in finished and f'href="/quiz/{second.room_id}"' not in finished
    live = web.get("/quiz?filter=live").text
    assert f'href="/quiz/{first.room_id}"' not in live and f'href="/quiz/{alone}"' in live
    token = csrf_in(web.get("/quiz").text)
    web.post(f"/quiz/{first.room_id}/archive", data={"csrf": token, "archived": "1"})
    assert f'href="/quiz/{first.room_id}"' not in web.get("/quiz").text
    assert f'href="/quiz/{first.room_id}"' in web.get("/quiz?filter=archived").text
    web.post(f"/quiz/{first.room_id}/archive", data={"csrf": token, "archived": "0"})
    assert f'href="/quiz/{first.room_id}"' in web.get("/quiz").text


def test_a_tour_room_keeps_the_pack_its_themes_come_from_so_its_media_reach_the_screens(
    web: TestClient, shared_data: Path
) -> None:
    from toreshi.store.packs import QuizPacks

    tour, services = tour_with_rooms(web, shared_data)
    first, second = on_app(web, services.quiz_tours.state, tour).links[:2]
    packs = QuizPacks(services.store.engine)
    stored = [on_app(web, packs.of_room, link.room_id) for link in (first, second)]
    first_pack = (shared_data / "quiz" / "siq" / "1.siq").read_bytes()
    assert stored[0] == first_pack  # the first game takes the first pack's first themes
    assert all(data is not None for data in stored)


async def play_questions(rooms: Any, room_id: str, answers: Sequence[str]) -> dict[str, int]:
    """The lot, then one question per team in ``answers``, each answered right by it (and the game left live)."""
    from toreshi.quiz.game import Phase

    from .quiz_driver import HOST, _send, _until

    owner = await rooms.get(room_id, "quiz")
    teams = owner.logic.game.teams
    await _send(owner, HOST, "draw", {"team": teams[0]})
    for team in answers:
        theme, value = owner.logic.game.open_cells[0]
        await _send(owner, HOST, "choose", {"theme": theme, "value": value})
        await _send(owner, HOST, "finish_reading")
        await _send(owner, Actor(f"team:{teams.index(team) + 1}", team), "press", received_ms=owner.now_ms())
        await _until(owner, (Phase.ANSWERING,))
        await _send(owner, HOST, "right")
    return dict(owner.logic.game.scores)


def test_the_games_list_finishes_a_live_tour_game_and_its_result_reaches_the_tour(
    web: TestClient, shared_data: Path
) -> None:
    tour, services = tour_with_rooms(web, shared_data)
    first, second = on_app(web, services.quiz_tours.state, tour).links
    scores = on_app(web, play_questions, services.rooms, first.room_id, ["Алтын", "Барыс", "Алтын"])
    assert scores == {"Алтын": 1 + 3, "Барыс": 2, "Сұңқар": 0, "Тұлпар": 0}
    page = web.get("/quiz").text
    # A live game that has started has its "finish" form, whose confirmation names the scores; one not started has
    # none (nor is it deleted: the help text says the archive is the delete).
    assert f'action="/quiz/{first.room_id}/finish"' in page and f'action="/quiz/{second.room_id}/finish"' not in page
    assert "Завершить эту игру сейчас с текущим счётом: Алтын 4, Барыс 2, Сұңқар 0, Тұлпар 0?" in page
    assert "Игры не удаляются" in page
    token = csrf_in(page)
    done = web.post(f"/quiz/{first.room_id}/finish", data={"csrf": token}, follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"] == "/quiz?filter=finished"
    finished = web.get("/quiz?filter=finished").text
    assert f'href="/quiz/{first.room_id}"' in finished and f'href="/quiz/{second.room_id}"' not in finished
    assert f'action="/quiz/{first.room_id}/archive"' in finished  # a finished game can be archived now
    on_app(web, services.quiz_tours.settled)
    pushed = on_app(web, services.quiz_tours.state, tour).link(first.room_id)
    assert pushed is not None and dict(pushed.scores or {}) == scores  # the room's end took the result to its tour
    report = web.get(f"/api/quiz/{first.room_id}/report").json()
    assert report["status"] == "finished" and report["ended"]["question"] == 3
    assert "Ведущий завершил игру досрочно" in web.get(f"/quiz/{first.room_id}/report").text
    # Over already, or never started: refused with the refusal's sentence on the games list, nothing changes.
    again = web.post(f"/quiz/{first.room_id}/finish", data={"csrf": token}, follow_redirects=False)
    assert again.status_code == 303 and again.headers["location"] == "/quiz"
    i18n.activate("ru")
    assert refusals.render(Refusal(QuizCode.FINISHED)) in html.unescape(web.get("/quiz").text)
    early = web.post(f"/quiz/{second.room_id}/finish", data={"csrf": token}, follow_redirects=True)
    i18n.activate("ru")
    assert refusals.render(Refusal(QuizCode.NOT_STARTED)).startswith("Игра не началась")
    assert early.status_code == 200 and refusals.render(Refusal(QuizCode.NOT_STARTED)) in html.unescape(early.text)
    untouched = on_app(web, services.quiz_tours.state, tour).link(second.room_id)
    assert untouched is not None and untouched.scores is None
    # Without the form's token nothing happens.
    web.post(f"/quiz/{second.room_id}/finish", data={"csrf": "x"})
    assert f'href="/quiz/{second.room_id}"' not in web.get("/quiz?filter=finished").text


def test_a_shootout_made_by_itself_can_be_joined_after_a_restart(tmp_path: Path, shared_data: Path) -> None:
    """Issue 31: a shootout's room is made when its tie is recorded, with no host's session to keep its join codes;
    they are derived from the app's key, so a new app on the same data folder shows them and they open the buzzer."""
    with TestClient(create_app(Settings(data_dir=tmp_path)), headers={"accept-language": "ru"}) as first_app:
        tour, services = tour_with_rooms(first_app, shared_data)
        first = on_app(first_app, services.quiz_tours.state, tour).links[0]
        on_app(first_app, play_game, services.rooms, first.room_id, ["Алтын", "Алтын", "Алтын", "Барыс", "Сұңқар"])
        on_app(first_app, services.quiz_tours.settled)
        shootout = on_app(first_app, services.quiz_tours.state, tour).links[-1]
        assert shootout.kind.value == "shootout"
    with TestClient(create_app(Settings(data_dir=tmp_path)), headers={"accept-language": "ru"}) as restarted:
        sign_in(restarted)
        page = restarted.get(f"/quiz/{shootout.room_id}/links", follow_redirects=False)
        assert page.status_code == 200, page.headers.get("location")
        assert "Вошедший судья может открыть эту страницу снова" in page.text  # no longer "shown once"
        room_code = shootout.room_id.removeprefix("q-").upper()
        codes = sorted(set(re.findall(rf"\b{room_code}-[A-Z2-9]{{5}}\b", page.text)))
        assert len(codes) == 2  # Барыс and Сұңқар
        restarted.cookies.clear()  # a team's phone: no arbiter's session
        for code in codes:
            joined = restarted.get(f"/j/{code}", follow_redirects=False)
            assert joined.status_code == 303 and "/buzzer?token=" in joined.headers["location"]
        assert restarted.get(f"/j/{room_code}-ABCDE", follow_redirects=False).status_code == 404


async def stored_packs(engine: Any) -> tuple[int, int]:
    """How many pack copies the store holds, and their bytes, over every table that may hold a pack's bytes."""
    from sqlalchemy import func, select

    from toreshi.store.schema import quiz_pack_contents, quiz_packs, quiz_tour_packs

    copies = size = 0
    async with engine.connect() as connection:
        for column in (quiz_pack_contents.c.data, quiz_packs.c.data, quiz_tour_packs.c.data):
            query = select(func.count(column), func.coalesce(func.sum(func.length(column)), 0))
            count, total = (await connection.execute(query)).one()
            copies, size = copies + int(count), size + int(total)
    return copies, size


def test_a_tour_stores_each_pack_once_however_many_rooms_play_it(web: TestClient, shared_data: Path) -> None:
    """Issue 31: the tour's rooms refer to its stored packs by their digest instead of a copy per room."""
    from toreshi.store.packs import QuizPacks

    tour, services = tour_with_rooms(web, shared_data)
    packs = [(shared_data / "quiz" / "siq" / name).read_bytes() for name in ("1.siq", "2.1.siq")]
    first = on_app(web, services.quiz_tours.state, tour).links[0]
    on_app(web, play_game, services.rooms, first.room_id, ["Алтын", "Алтын", "Алтын", "Барыс", "Сұңқар"])
    on_app(web, services.quiz_tours.settled)
    links = on_app(web, services.quiz_tours.state, tour).links
    assert len(links) == 3 and links[-1].kind.value == "shootout"  # 3 rooms: two games and a shootout
    assert on_app(web, stored_packs, services.store.engine) == (2, sum(map(len, packs)))
    stored = [on_app(web, QuizPacks(services.store.engine).of_room, link.room_id) for link in links]
    assert stored[0] == packs[0] and all(data in packs for data in stored)  # each room still reads its pack

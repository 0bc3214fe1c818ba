"""The command line's printable crosstable (``tournament standings FILE.trf --html``): escaped, printable, in the
language and with the legend and note the caller gives."""

from __future__ import annotations

from toreshi.commands.printing import to_html
from toreshi.tournament.crosstable import Columns, Table, crosstable, round_robin_grid
from toreshi.tournament.standings import standings_for

from ..tournament.test_crosstable import four_player_round_robin


def test_html_is_printable_and_escaped() -> None:
    table = Table("Cup <2026>", ("Rank", "No", "Name"), (("1", "1", "Ali & <Bek>"),))
    html = to_html(table)
    assert html.startswith("<!DOCTYPE html>")
    assert "<h1>Cup &lt;2026&gt;</h1>" in html
    assert "Ali &amp; &lt;Bek&gt;" in html
    assert "@media print" in html
    grid = to_html(round_robin_grid(standings_for(four_player_round_robin()), "RR"))
    assert grid.count("<tr>") == 1 + 4  # header + one row per player
    assert "Dauletov" in grid and "×" in grid


def test_a_page_gives_the_columns_and_the_way_points_are_written() -> None:
    columns = Columns(rank="Орын", number="№", name="Аты", rating="Рейтинг", points="Ұпай", round="Т{n}")
    standings = standings_for(four_player_round_robin())
    table = round_robin_grid(standings, "", columns, points=lambda p: str(float(p)).replace(".", ","))
    assert table.headers[:4] == ("Орын", "№", "Аты", "Рейтинг") and "Ұпай" in table.headers
    assert any("," in cell for row in table.rows for cell in row[-1 - len(standings.tiebreaks) :])
    page = to_html(table, "kk", heading="Турнир кестесі", legend=[("SB", "Зонненборн–Бергер")])
    assert '<html lang="kk">' in page and "<title>Турнир кестесі</title>" in page
    assert "<dt>SB</dt><dd>Зонненборн–Бергер</dd>" in page
    assert to_html(table).startswith('<!DOCTYPE html>\n<html lang="en">')  # the command line's default


def test_the_page_prints_the_tiebreak_rules_only_when_given() -> None:
    table = crosstable(standings_for(four_player_round_robin()), "RR")
    page = to_html(table, note=table.rules_note)
    assert table.rules_note in page
    assert "FIDE C.07" not in to_html(table)  # a page in Kazakh or Russian passes its own words, or none

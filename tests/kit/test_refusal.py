"""A refusal travels as a dict (forwarded by another instance, kept in a session for the next page) and is read back
with :meth:`Refusal.from_dict`: the same refusal, or a safe one — never a crash, never a sentence smuggled in."""

from __future__ import annotations

from enum import unique

from toreshi.kit.refusal import CodeBook, Common, Refusal, RefusalCode, Refused


@unique
class _Board(RefusalCode):
    HOLE_EMPTY = "hole_empty"
    NOT_ARRIVED = "not_arrived"


@unique
class _Other(RefusalCode):
    NOT_ARRIVED = "not_arrived"  # the same value as _Board's: the book's first enumeration wins


BOOK = CodeBook(Common, _Board)


def test_a_refusal_with_nested_details_reads_back_as_itself() -> None:
    refusal = Refusal(
        Common.BAD_REQUEST,
        {"field": "file", "line": 3},
        (Refusal(_Board.HOLE_EMPTY, {"hole": 7}), Refusal(Common.FIELD_EMPTY, {"field": "name"})),
    )
    data = refusal.to_dict()
    assert data == {
        "code": "bad_request",
        "params": {"field": "file", "line": 3},
        "details": [
            {"code": "hole_empty", "params": {"hole": 7}},
            {"code": "field_empty", "params": {"field": "name"}},
        ],
    }
    read = Refusal.from_dict(data, BOOK)
    assert read == refusal
    assert [detail.code for detail in read.details] == [_Board.HOLE_EMPTY, Common.FIELD_EMPTY]


def test_a_refusal_without_details_writes_no_details_key() -> None:
    assert Refusal(_Board.NOT_ARRIVED, {"player": "Асқар"}).to_dict() == {
        "code": "not_arrived",
        "params": {"player": "Асқар"},
    }


def test_the_code_is_read_with_the_book_given() -> None:
    assert Refusal.from_dict({"code": "hole_empty", "params": {}}, BOOK).code is _Board.HOLE_EMPTY
    # A book without the enumeration (an older instance) reads it as bad_request, keeping the parameters.
    older = Refusal.from_dict({"code": "hole_empty", "params": {"hole": 7}}, CodeBook(Common))
    assert (older.code, dict(older.params)) == (Common.BAD_REQUEST, {"hole": 7})
    assert Refusal.from_dict({"params": {}}, BOOK).code is Common.BAD_REQUEST
    assert Refusal.from_dict({"code": 7}, BOOK).code is Common.BAD_REQUEST


def test_only_names_and_whole_numbers_survive_as_parameters() -> None:
    data = {
        "code": "field_too_large",
        "params": {"field": "hole", "maximum": 9, "flag": True, "ratio": 1.5, "list": [1], "nested": {"a": 1}},
    }
    assert dict(Refusal.from_dict(data, BOOK).params) == {"field": "hole", "maximum": 9}
    assert dict(Refusal.from_dict({"code": "forbidden", "params": {"n": 0, "s": ""}}, BOOK).params) == {"n": 0, "s": ""}


def test_parameters_or_details_of_the_wrong_shape_are_dropped_not_raised() -> None:
    assert Refusal.from_dict({"code": "forbidden", "params": ["field", "x"]}, BOOK) == Refusal(Common.FORBIDDEN)
    assert Refusal.from_dict({"code": "forbidden", "params": None, "details": "x"}, BOOK) == Refusal(Common.FORBIDDEN)
    mixed = {"code": "bad_request", "details": ["a line", {"code": "field_empty", "params": {"field": "b"}}, 3]}
    assert Refusal.from_dict(mixed, BOOK).details == (Refusal(Common.FIELD_EMPTY, {"field": "b"}),)


def test_a_book_keeps_the_first_enumerations_code_for_a_shared_value() -> None:
    assert CodeBook(_Board, _Other).get("not_arrived") is _Board.NOT_ARRIVED
    assert CodeBook(_Other, _Board).get("not_arrived") is _Other.NOT_ARRIVED
    assert "hole_empty" in BOOK and "hole_empty" not in CodeBook(Common)
    wider = CodeBook(Common).including(_Board)
    assert wider.get("hole_empty") is _Board.HOLE_EMPTY and wider.enumerations == (Common, _Board)


def test_with_params_adds_to_the_parameters_and_keeps_the_details() -> None:
    detail = Refusal(Common.FIELD_EMPTY, {"field": "x"})
    refusal = Refusal(_Board.NOT_ARRIVED, {"player": "A"}, (detail,)).with_params(player="B", board=2)
    assert (refusal.code, dict(refusal.params), refusal.details) == (
        _Board.NOT_ARRIVED,
        {"player": "B", "board": 2},
        (detail,),
    )


def test_refused_carries_its_refusal_and_says_it_plainly() -> None:
    raised = Refused(Common.FIELD_TOO_LARGE, field="hole", maximum=9)
    assert (raised.code, dict(raised.params)) == ("field_too_large", {"field": "hole", "maximum": 9})
    assert str(raised) == "field_too_large (field='hole', maximum=9)"
    assert str(Refused(Common.NOT_NOW)) == "not_now"
    again = Refused(Refusal(_Board.NOT_ARRIVED, {"player": "A"}), board=2)
    assert again.refusal == Refusal(_Board.NOT_ARRIVED, {"player": "A", "board": 2})
    listed = Refused(Common.BAD_REQUEST, details=(Refusal(Common.FIELD_EMPTY),))
    assert listed.refusal.details == (Refusal(Common.FIELD_EMPTY),)
    assert not isinstance(raised, ValueError)

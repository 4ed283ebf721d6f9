"""Every trend-card face and every reputation card of the data, scored on small shops by the spec's rules (2.5-2.8, 6.2)."""

from __future__ import annotations

import pytest

from referee.games.merchants.data import KINDS
from referee.games.merchants.patterns import score_face
from referee.games.merchants.shop import condition_met, magic_circles, tiles_at
from tests.games.merchants.helpers import DATA, shop, tiles

# (card, face, K, shop rows, points): each value worked out by hand from the face's md text.
FACE_CASES = [
    ("DR1", "A", None, ["R01 R03 R05 R07"], 4),
    ("DR1", "A", None, ["R01 R03", "B01 B03"], 2),
    ("DR1", "A", None, ["R01", "R03", "R05"], 3),
    ("DR1", "A", None, ["R01 B01 R03"], 0),
    ("DR1", "B", None, ["B01 B03 R01 B05", "R03 R05 R07 B07"], 4),
    ("DR1", "B", None, ["B01 R01 B03"], 0),
    ("DR2", "A", None, ["R01 .", "R03 Y01", "R05 Y03"], 5),
    ("DR2", "A", None, ["R01 Y01", "R03 B01"], 0),
    ("DR2", "B", None, ["R01 R09", "R03 B01", "R05 B03", "R07 B05"], 5),
    ("DR2", "B", None, ["R01 R03 R05"], 3),
    ("DR2", "B", None, ["R01 R03", "B01 B03"], 0),
    ("DR3", "A", None, ["B01 B03 B05"], 2),
    ("DR3", "A", None, ["B01", "Y01", "B03"], 2),
    ("DR3", "A", None, ["B01 . B03"], 2),
    ("DR3", "A", None, ["B01 B03"], 0),
    ("DR3", "B", None, ["R01 R03 R05 Y01"], 2),
    ("DR3", "B", None, ["R01 Y01"], 0),
    ("DR4", "A", None, ["Y01 R01 Y03", "Y05 B01 R03"], 2),
    ("DR4", "A", None, ["R01 B01"], 0),
    ("DR4", "B", None, ["B01 B03 B05", "R01 R03 B07"], 4),
    ("DR4", "B", None, ["B01 R01"], 0),
    ("CA1", "A", None, ["Y01 Y03", "Y05 Y07"], 4),
    ("CA1", "A", None, ["Y01 Y03", "R01 Y05"], 3),
    ("CA1", "A", None, ["Y01 Y03 Y05"], 2),
    ("CA1", "A", None, ["Y01 R01 Y03"], 0),
    ("CA1", "B", None, ["R01 R03 B01 R05", "B03 B05 B07 R07"], 4),
    ("CA1", "B", None, ["R01 B01 R03"], 0),
    ("CA2", "A", None, ["Y01 B01", "B03 Y03"], 2),
    ("CA2", "A", None, ["B01 Y01", "Y03 B03"], 2),
    ("CA2", "A", None, ["Y01 B01", "Y03 B03"], 0),
    ("CA2", "B", None, ["Y01 Y03 Y05", "R01 Y07 R03"], 3),
    ("CA2", "B", None, ["Y01 Y03"], 0),
    ("CA3", "A", None, ["R01 B01 R03", "B03 . B05", "R05 B07 R07"], 4),
    ("CA3", "A", None, ["R01 R03"], 0),
    ("CA3", "B", None, ["Y01 Y03 Y05 B01"], 2),
    ("CA3", "B", None, ["Y01 B01"], 0),
    ("CA4", "A", None, ["B01 R01 B03"], 2),
    ("CA4", "A", None, ["R01"], 0),
    ("CA4", "B", None, ["R01 R03 R05", "R07 R09 R11"], 5),
    ("CA4", "B", None, ["R01 B01 R03"], 0),
    ("SW1", "A", None, ["B01 B07 B13"], 3),
    ("SW1", "A", None, ["B01", "B07"], 2),
    ("SW1", "A", None, ["B01 B03 B05"], 0),
    ("SW1", "B", None, ["Y01 Y03 B01 Y05"], 2),
    ("SW1", "B", None, ["Y01 B01 Y03"], 0),
    ("SW2", "A", None, ["B01 B03", "B05 B07"], 4),
    ("SW2", "A", None, ["B01 B03", "R01 B05"], 3),
    ("SW2", "A", None, ["B01 B03 B05"], 0),
    ("SW2", "B", None, ["B01 B03", "B05 R01"], 3),
    ("SW2", "B", None, ["B01 R01 B03"], 0),
    ("SW3", "A", None, ["Y01 R01 Y03"], 2),
    ("SW3", "A", None, ["Y01 Y03"], 0),
    ("SW3", "B", None, ["B01 B03 R01"], 1),
    ("SW3", "B", None, ["B01 R01"], 0),
    ("SW4", "A", None, ["R01 B01 R03"], 2),
    ("SW4", "A", None, ["B01"], 0),
    ("SW4", "B", None, ["Y01 Y03"], 2),
    ("SW4", "B", None, ["Y01 B01"], 0),
    ("DR99", "A", None, ["R01 R03 R05", "B01 R07 B03"], 4),
    ("DR99", "A", None, ["R01 R03 R05", "R07 B01 R09"], 0),
    ("DR99", "B", None, ["R01 R03 R05", "B01 B03 R07"], 3),
    ("DR99", "B", None, ["R01 R03 B01"], 0),
    ("CA99", "A", None, ["Y01 R01 Y03", "R03 R05 R07", "Y05 R09 Y07"], 4),
    ("CA99", "A", None, ["Y01 R01 Y03", "R03 R05 R07", "Y05 R09 B01"], 0),
    ("CA99", "B", None, ["R01 R03 Y01", "B01 B03 B05"], 3),
    ("CA99", "B", None, ["R01 B01 Y01"], 0),
    ("SW99", "A", None, ["R01 B01 Y01"], 3),
    ("SW99", "A", None, ["Y01 B01 R01"], 3),
    ("SW99", "A", None, ["R01", "B01", "Y01"], 3),
    ("SW99", "A", None, ["R01 Y01 B01"], 0),
    ("SW99", "B", None, ["B01 B03 B05", "B07 B09 R01"], 1),
    ("SW99", "B", None, ["B01 B03", "B05 B07"], 0),
    ("C1", "", "sword", ["R01 B01 Y01"], 3),
    ("C1", "", "staff", ["R01 B01 Y01"], 0),
    ("C2", "", "sword", ["R01 R07", "R09 B01"], 2),
    ("C2", "", "sword", ["R01 B01"], 0),
    ("C3", "", "sword", ["R01 R07 B01"], 2),
    ("C3", "", "armor", ["R01 R07 B01"], 0),
    ("C4", "", "sword", ["R01 B01 R07 Y01"], 2),
    ("C4", "", "sword", ["R01 R07 Y01"], 0),
    ("C5", "", "sword", ["R01 B01 Y01 R03", "B03 Y03 R05 B05"], 5),
    ("C5", "", "sword", ["R01 R07 B01"], 0),
    ("C6", "", "staff", ["R07 B07 Y07"], 3),
    ("C6", "", "sword", ["R07 B07 Y07"], 0),
    ("D1", "", "shield", ["R13 B13 Y13"], 1),
    ("D1", "", "shield", ["R13 B13 Y01"], 0),
    ("D2", "", "armor", ["R19 R01 R21"], 2),
    ("D2", "", "armor", ["R19 R21"], 0),
    ("D3", "", "shield", ["R13 B13", "Y13 R01"], 3),
    ("D3", "", "shield", ["R13 R01", "R03 Y13"], 0),
    ("D4", "", "armor", ["R19 R21 R23", "R01 B19 B01"], 4),
    ("D4", "", "armor", ["R19 R21", "R01 B19"], 3),
    ("D4", "", "armor", ["R19 R21 R23"], 2),
    ("D4", "", "armor", ["R19 R01 R21"], 0),
    ("D5", "", "staff", ["R09 R11 B09", "B11 R01 R03"], 4),
    ("D5", "", "staff", ["R09 R01 B09"], 0),
    ("D6", "", "sword", ["R01 B01 Y01 R03", "B03 Y03 R05 R07"], 6),
    ("D6", "", "sword", ["R01 R07 B01"], 0),
]

FULL_16 = ["R05@90 R13@180 Y01@180 B07@0", "R09@0 B03@0 Y11@0 B21@0", "Y03@0 B05@0 R11@0 Y17@0", "B13@0 R15@0 Y21@0 R23@0"]
CENTRE_RED = ["B01 Y01 B03 Y03", "Y05 R01 R03 B05", "B07 R05 R07 Y07", "Y09 B09 Y11 B11"]
REP_CASES = [
    # (card, shop rows, discards, met)
    ("REP01", ["R01 B01"], 0, True),
    ("REP01", ["R01 B01"], 1, False),
    ("REP02", ["R01 R03 R05", "R07 R09 R11"], 0, True),
    ("REP02", ["R01 R03 R05", "R07 R09 B01"], 0, False),
    ("REP03", ["B01 B03 B05", "B07 B09 B11"], 0, True),
    ("REP03", ["B01 B03 B05", "B07 B09 Y01"], 0, False),
    ("REP04", ["Y01 Y03 Y05", "Y07 Y09 Y11"], 0, True),
    ("REP04", ["Y01 Y03 Y05", "Y07 Y09 R01"], 0, False),
    ("REP05", ["R01 R03 R05 R07", "B01 B03 B05 B07", "Y01 Y03 Y05 Y07"], 0, True),
    ("REP05", ["R01 R03 R05 R07", "B01 B03 B05 B07", "Y01 Y03 Y05 R09"], 0, False),
    ("REP06", ["R01 R03 B01", "B03 Y01 R07"], 0, True),
    ("REP06", ["R01 R03 B01", "B07 Y01 R07"], 0, False),
    ("REP07", ["R07 R09 B07", "B09 Y07 R01"], 0, True),
    ("REP07", ["R07 R09 B07", "B01 Y07 R01"], 0, False),
    ("REP08", ["R13 R15 B13", "B15 Y13 R01"], 0, True),
    ("REP08", ["R13 R15 B13", "B01 Y13 R01"], 0, False),
    ("REP09", ["R19 R21 B19", "B21 Y19 R01"], 0, True),
    ("REP09", ["R19 R21 B19", "B01 Y19 R01"], 0, False),
    ("REP10", ["R01 R07 R13 R19", "B01 B07 B13 B19", "Y01 Y07 Y13 Y19"], 0, True),
    ("REP10", ["R01 R07 R13 R19", "B01 B07 B13 B19", "Y01 Y07 Y13 Y03"], 0, False),
    ("REP11", ["R01 R03 B01", "R05 R07 B03"], 0, True),
    ("REP11", ["R01 R03 R05", "R07 B01 R09"], 0, False),
    ("REP12", ["R01 B07", "Y13 R19"], 0, True),
    ("REP12", ["R01 B07 Y13 R19"], 0, False),
    ("REP13", ["B01", "B03", "B05", "B07"], 0, True),
    ("REP13", ["B01 B03 B05 Y01", "B07 . . ."], 0, False),
    ("REP14", ["R01", "R07", "R13", "R19"], 0, True),
    ("REP14", ["R01 R07 R13 R03"], 0, False),
    ("REP15", ["R01 B01 R03", "B03 Y01 B05", "R05 Y03 R07"], 0, True),
    ("REP15", ["R01 B01 R03"], 0, False),
    ("REP15", ["R01 B01 R03", "B03 Y01 B05", ". Y03 R07"], 0, False),
    ("REP16", FULL_16, 0, True),
    ("REP16", ["R05@90 R13@270 Y01@180", "R09@0 B03@270 Y11@0"], 0, False),
    ("REP17", ["R01 R03 R05 R07", "R09 R11 B01 B03", "B05 B07 B09 B11", "Y01 Y03 Y05 ."], 0, True),
    ("REP17", ["R01 R03 R05 R07", "R09 R11 B01 B03", "B05 B07 B09 B11", "Y01 Y03 Y07 ."], 0, False),
    ("REP18", ["R01 B01 R03", "B03 R05 B05", "Y01 B07 Y03"], 0, True),
    ("REP18", ["R01 B01 R03", "B03 R05 B05", "Y01 Y03 R07"], 0, False),
    ("REP19", ["R01 B01 Y01 R07"], 0, True),
    ("REP19", ["R01 B01 Y01 R03"], 0, False),
    ("REP20", ["R01", "B07", "Y03", "R09"], 0, True),
    ("REP20", ["R01", "B07", "Y03", "R13"], 0, False),
    ("REP21", CENTRE_RED, 0, True),
    ("REP21", [row for row in CENTRE_RED[:3]] + ["Y09 B09 Y11 ."], 0, False),
    ("REP21", ["B01 Y01 B03 Y03", "Y05 R01 B13 B05", "B07 R05 R07 Y07", "Y09 B09 Y11 B11"], 0, False),
    ("REP22", ["R01 R03 R05 R07", "R09 R11 R13 R15"], 0, True),
    ("REP22", ["R01 R03 R05 R07", "R09 R11 R13 B01"], 0, False),
]


@pytest.mark.parametrize(("card", "side", "kind", "rows", "points"), FACE_CASES)
def test_each_trend_face_scores_as_its_md_text_says(card: str, side: str, kind: str | None, rows: list[str], points: int) -> None:
    assert score_face(DATA.face(card, side), tiles(rows), kind) == points


def test_every_trend_face_is_checked_both_achieved_and_not() -> None:
    faces = {(card.id, side) for card in [*DATA.ab_cards.values(), *DATA.floor99_cards.values()] for side in ("A", "B")}
    faces |= {(card, "") for card in [*DATA.c_cards, *DATA.d_cards]}
    achieved = {(card, side) for card, side, _, _, points in FACE_CASES if points >= 1}
    missed = {(card, side) for card, side, _, _, points in FACE_CASES if points == 0}
    assert achieved == faces and missed == faces
    assert {kind for card, _, kind, _, _ in FACE_CASES if card[0] in "CD" and card[1].isdigit() and len(card) == 2} == set(KINDS)


@pytest.mark.parametrize(("card", "rows", "discards", "met"), REP_CASES)
def test_each_reputation_condition_as_its_md_text_says(card: str, rows: list[str], discards: int, met: bool) -> None:
    cells = shop(rows)
    circles = magic_circles(cells, DATA)
    assert condition_met(DATA.reputation[card].condition, tiles_at(cells, DATA), discards, circles) is met


def test_every_reputation_card_is_checked_met_and_not_met() -> None:
    assert {card for card, _, _, met in REP_CASES if met} == set(DATA.reputation)
    assert {card for card, _, _, met in REP_CASES if not met} == set(DATA.reputation)

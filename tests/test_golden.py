"""Golden files: exact expected answers, one case per line (see data/make_golden.py)."""

from pathlib import Path

import pytest

from prefsolve import Deal, table

DATA = Path(__file__).parent / "data"


def cases(name):
    for line in (DATA / name).read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            deal, leader, rows = (part.strip() for part in line.split("|"))
            expected = [list(map(int, row.split())) for row in rows.split("/")]
            yield pytest.param(deal, int(leader), expected, id=deal[:20])


def as_rows(t):
    return [[t.tricks[d][s] for s in ("S", "C", "D", "H", "NT", "misere")] for d in range(3)]


@pytest.mark.parametrize("deal, leader, expected", list(cases("endings.txt")))
def test_endings(deal, leader, expected):
    assert as_rows(table(Deal.parse(deal), leader=leader, talon_mode="ignore")) == expected


@pytest.mark.parametrize("deal, leader, expected", list(cases("tables.txt")))
def test_full_tables_with_talon(deal, leader, expected):
    assert as_rows(table(Deal.parse(deal), leader=leader, talon_mode="take")) == expected


def test_golden_files_are_not_empty():
    assert len(list(cases("endings.txt"))) >= 20 and len(list(cases("tables.txt"))) >= 5

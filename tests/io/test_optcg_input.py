"""OPTCGSim import: what a file must hold to be read, and how it is read (card tokens, encodings,
file types, markup, the card database, error messages). Inputs are the real esempio.log changed in
one place each (the QA pass of issue #17 found these; its files were made the same way)."""
from __future__ import annotations

import pytest

from engine.match import InputError
from engine.store import EventStore
from judge.io.importers import optcgsim
from tests.rulesets.optcg.support import SIM_LOG


def esempio() -> list[str]:
    with open(SIM_LOG, encoding="utf-8") as f:
        return f.read().split("\n")


def write(tmp_path, name: str, lines: list[str]) -> str:
    path = str(tmp_path / name)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write("\n".join(lines))
    return path


def refused(tmp_path, path: str) -> str:
    store = EventStore.open(str(tmp_path / "t.db"))
    with pytest.raises(InputError) as err:
        optcgsim.import_file(store, path)
    assert store.match_ids() == []  # nothing stored
    return str(err.value)


# --- item 1: a card token that is not a card number ---------------------------------------------

@pytest.mark.parametrize("token", ["Unknown", "0", "Card", "?"])
def test_a_move_whose_card_is_not_a_card_number_is_refused_naming_line_and_column(tmp_path, token):
    lines = esempio()
    i = lines.index("RZ1|54|1|OP12-023|0|49|1|0|1|1|0|0|0")
    lines[i] = lines[i].replace("OP12-023", token)
    error = refused(tmp_path, write(tmp_path, "hidden.log", lines))
    assert f"hidden.log:{i + 1}:10" in error and "not a card number" in error and "hidden ones too" in error


def test_a_card_number_the_card_data_does_not_know_is_still_a_card(tmp_path):
    lines = [ln.replace("|OP12-023|", "|XX99-999|").replace('"OP12-023">OP12-023', '"XX99-999">XX99-999')
             for ln in esempio()]
    store = EventStore.open(str(tmp_path / "t.db"))
    s = optcgsim.import_file(store, write(tmp_path, "xx.log", lines))
    assert s.created and s.to_dict()["chk_mismatches"] == 0

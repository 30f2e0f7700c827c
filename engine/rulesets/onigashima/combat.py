"""Onigashima's dice arithmetic, as pure functions (the worked example is their test).

Golden rule 3: each die >= the defence removes 1 energy. An ability ("capacité") recorded with the
attack changes that: on the listed faces the die removes `ability_energy` whatever the defence
(Kaido: 5 energies on 1, 2, 3, 4 and 6); the other dice still count 1 when >= the defence (Zoro's
example: 1, 1, 2, 2, 4 and 6 -> 20 + 1 = 21).
"""
from __future__ import annotations

from collections.abc import Iterable


def energy_lost(dice: Iterable[int], defence: int, *, ability_faces: Iterable[int] = (),
                ability_energy: int = 0, bonus: int = 0, defence_minus: int = 0,
                cancelled_dice: Iterable[int] = ()) -> int:
    """Energy one dice attack removes. `bonus` is added to each die before comparing it with the
    defence (an ability's "+1"); `defence_minus` lowers the defence; `cancelled_dice` are die values
    the defender's ability dodged (one die removed per value listed). Ability faces are read on the
    natural die."""
    left = list(dice)
    for value in cancelled_dice:
        if value in left:
            left.remove(value)
    faces = set(ability_faces)
    target = defence - defence_minus
    total = 0
    for d in left:
        if d in faces and ability_energy:
            total += ability_energy
        elif d + bonus >= target:
            total += 1
    return total


def dodge_needs(advanced: int) -> int | None:
    """The D6 an advanced-haki dodge needs: 1 haki -> 6, 2 -> 5, 3 -> 4; none -> cannot dodge."""
    if advanced <= 0:
        return None
    return max(4, 7 - advanced)

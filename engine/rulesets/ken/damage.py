"""Ken il Guerriero: how a group's damage is dealt to the opposing group (I danni, Fig. 10).

"Per calcolare i danni si inizia dalla prima carta dell'avversario, cioè quella che sta più in alto
poi si passa alla successiva e così via finché i danni sono terminati o le carte avversarie sono
state tutte Vinte. Quando si infliggono i danni ad una carta prima va sottratta la sua Difesa e poi
la sua Resistenza, solo se la Resistenza è completamente Azzerata la carta è Vinta."

A Life ("goccia di sangue") absorbs any amount of damage once the Defence is passed: one Life is
lost and the distribution stops (Esempio 1). Under Mortale/Massacratore a Character's Lives are
worth 1 Resistance each. Multiple damage (Doppi/Tripli Danni) repeats the distribution on the
surviving cards, each wave as if their Resistance had not been touched.

Pure functions, no state: the ruleset feeds them the cards' values and applies the result.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Target:
    unit: str
    defence: int
    resistance: int | None  # None: the card has Life
    lives: int = 0
    character: bool = False  # a Character with Life (Mortale/Massacratore apply), not a Master


@dataclass
class Hit:
    unit: str
    wave: int
    to_defence: int
    to_resistance: int
    lives_lost: int = 0
    vanquished: bool = False

    @property
    def absorbed(self) -> int:
        return self.to_defence + self.to_resistance


@dataclass
class Distribution:
    hits: list[Hit] = field(default_factory=list)
    overflow: int = 0  # damage left after every target was vanquished (reaches a Master Commander)

    def vanquished(self) -> list[str]:
        return [h.unit for h in self.hits if h.vanquished]

    def lives_lost(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for h in self.hits:
            if h.lives_lost:
                out[h.unit] = out.get(h.unit, 0) + h.lives_lost
        return out


def distribute(damage: int, targets: list[Target], *, waves: int = 1,
               lives_as_resistance: bool = False) -> Distribution:
    """Deal `damage` to `targets` (first card first), `waves` times (Doppi Danni: 2)."""
    result = Distribution()
    lives = {t.unit: t.lives for t in targets}
    alive = [t for t in targets]
    for wave in range(1, max(1, waves) + 1):
        remaining = damage
        survivors = []
        for t in alive:
            if remaining <= 0:
                survivors.append(t)
                continue
            to_def = min(remaining, t.defence)
            remaining -= to_def
            hit = Hit(t.unit, wave, to_def, 0)
            if t.resistance is None:  # Life
                if remaining > 0:
                    if lives_as_resistance and t.character:
                        lost = absorbed = min(remaining, lives[t.unit])
                    else:
                        # "Una Vita è in grado di assorbire un numero infinito di danni"
                        lost, absorbed = 1, remaining
                    remaining -= absorbed
                    hit.lives_lost = lost
                    hit.to_resistance = absorbed
                    lives[t.unit] -= lost
                    hit.vanquished = lives[t.unit] <= 0
            else:
                to_res = min(remaining, t.resistance)
                remaining -= to_res
                hit.to_resistance = to_res
                hit.vanquished = to_def == t.defence and to_res >= t.resistance
            result.hits.append(hit)
            if not hit.vanquished:
                survivors.append(t)
        alive = survivors
        if not alive:
            # every card Vinta: what is left (and any later wave) reaches a Master Commander
            result.overflow = remaining + damage * (max(1, waves) - wave)
            break
    return result

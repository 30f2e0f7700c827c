"""The few cards the MM25 rulebook itself rules on (FAQ and errata), and the arithmetic it prescribes.

Only what the rulebook states is here: which cards change the Action budget, which prevent or
override a Battle target (FAQ "Priorità"), the Special cards, the errata'd cards, and the Miss
Monday damage clamp. Everything else about a card is read off the card and recorded in events.
"""
from __future__ import annotations

# FAQ, effetti continui: continuous Action modifiers (BP-T07 counts from the turn after its call).
ACTIONS_SELF = {"BP-T07": +1}      # while on your Ponte: you may use 4 Actions
ACTIONS_OPPONENT = {"TD-C21": -1}  # while on your Ponte: the opponent has at most 2 Actions
BASE_ACTIONS = 3

MISS_MONDAY = "RG-C19"
ENEMY_CREW = "Ciurma Nemica"
CITIZENS = "Cittadini"

# FAQ Priorità: cards that prevent Battles against a specific Character (their conditions below).
PREVENTERS = ("MS-C14", "RG-C11", "RK-C18", "RK-C20", "JO-C27", "CS-C19", "ES-C04")
# ...and "the only ones that have priority over them": they start or allow a Battle against a target.
OVERRIDES = ("LK-C19", "SB-C06", "JS-C04", "CS-C04", "CS-C07", "BP-C31", "ES-C23")

# FAQ Carte Speciali: used outside the "Azioni di Battaglia" window.
SPECIAL_CARDS = ("TD-W01", "BP-W13", "BP-W05", "JS-W28")
NOT_DURING_BATTLE_ACTIONS = ("BP-W13", "BP-W05", "JS-W28")

# FAQ Priorità quotes JO-C27 Konis: "Quando questo Personaggio viene sconfitto non diventerà un Trofeo, ma
# andrà scartato nell'Oceano."
NO_TROPHY = "JO-C27"

# Errata.
NO_TECHNIQUE_DAMAGE = ("CE-C07", "LK-C13")
SECOND_BATTLE = "LK-C18"
UNMOVABLE_TECHNIQUE = "JS-W45"
SB_C14 = "SB-C14"
JS_W06 = "JS-W06"
CS_W03 = "CS-W03"


def same_name(a: str, b: str) -> bool:
    """Names compare as written in white on the card; Robin and Miss All Sunday are one Character."""
    return canonical_name(a) == canonical_name(b)


def canonical_name(name: str) -> str:
    n = " ".join(name.split()).casefold()
    return "robin" if n in ("robin", "miss all sunday") else n


def miss_monday_damage(damage: int) -> int:
    """RG-C19 on the Ponte, for an Enemy Crew Character whose damage, every bonus and malus counted,
    is `damage`: 1 or less gets the +1; 3 or more is reduced to 2; 2 stays 2 (the +1 may not raise
    it to 3). Never below 0 (a Character does not heal by dealing damage)."""
    if damage <= 1:
        return max(0, damage + 1)
    return 2


def action_budget(own_ponte: list[str], own_ponte_ready: list[str], opponent_ponte: list[str],
                  effects: int = 0) -> tuple[int, list[str]]:
    """The Actions of a turn: 3 plus every "additional" Action, summed (FAQ: 3 - 1 + 1 = 3).

    `own_ponte_ready` are the turn player's cards called before this turn (BP-T07 counts only from
    the turn after its call). Returns the budget and the terms, for the explanation."""
    terms = [f"{BASE_ACTIONS} (base)"]
    total = BASE_ACTIONS
    for code in own_ponte_ready:
        if code in ACTIONS_SELF:
            total += ACTIONS_SELF[code]
            terms.append(f"{ACTIONS_SELF[code]:+d} ({code})")
    for code in opponent_ponte:
        if code in ACTIONS_OPPONENT:
            total += ACTIONS_OPPONENT[code]
            terms.append(f"{ACTIONS_OPPONENT[code]:+d} ({code}, opponent)")
    if effects:
        total += effects
        terms.append(f"{effects:+d} (recorded effects)")
    return max(0, total), terms

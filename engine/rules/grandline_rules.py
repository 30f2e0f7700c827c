"""The rule catalogue of the German "Umfassende Regeln" (grandline-umfassende-regeln.de.md), quoted in
German. The text contradicts itself; where it does, the rule names the option that picks the reading
(see CONTRADICTIONS and docs/rulesets/grandline.md). Section names are the text's headings; "(A)"
is the first run of phases (Spielablauf, with action points and islands), "(B)" the second (Spielphasen,
with Beli, blocking and 10 life points).
"""
from __future__ import annotations

from ..findings import Rule

RULES = (
    Rule("GL-DECK", "Allgemeines; Spielmaterial", "A deck is 50 cards: the Captain and 49 others",
         "checked",
         "Ein Deck aus 50 Karten, das aus einer Kapitänskarte und 49 anderen Karten besteht.",
         why="checked at setup: deck + opening hand = 49 (the deck-building rules of 'Abschnitt 11. "
             "Glossar' are not in the text)"),
    Rule("GL-START", "Spielablauf (A); Spielphasen (B)", "Who is the start player of each round",
         "checked",
         "Der Spieler mit der höchsten Initiative beginnt das Spiel und ist der erste Spieler. [...] Der "
         "Startspieler ist derjenige, der die höchste Zahl auf einem Würfelwurf erzielt hat, bevor das "
         "Spiel beginnt. Der Startspieler wechselt nach jeder Runde im Uhrzeigersinn.",
         why="contradiction C4, option `turn_structure`"),
    Rule("GL-PHASE-ORDER", "Spielphasen", "Four phases in order: preparation, main/action, combat, end",
         "checked",
         "Jede Runde besteht aus vier Phasen, die in der folgenden Reihenfolge ablaufen"),
    Rule("GL-DRAW", "Vorbereitungsphase", "Each player draws one card in the preparation phase",
         "checked",
         "Ziehen: Der Spieler zieht eine Karte von seinem Deck und nimmt sie auf die Hand."),
    Rule("GL-DECK-OUT", "Vorbereitungsphase (A) / (B)", "Drawing from an empty deck", "recorded",
         "Wenn sein Deck leer ist, mischt er seine Abwurfzone und bildet ein neues Deck. [...] Wenn du "
         "keine Karten mehr in deinem Deck hast, verlierst du das Spiel.",
         why="contradiction C2, option `deck_out`; applied by replay (the loss or the reshuffle)"),
    Rule("GL-RESOURCE", "Vorbereitungsphase (A) / (B)", "Action points or Beli each round", "recorded",
         "Der Spieler erhält eine Anzahl von Aktionspunkten gleich seiner Initiative plus einem Bonus von "
         "2, wenn er der erste Spieler ist. [...] Erhöhe deine Beli um 1.",
         why="contradiction C5, option `resource`; derived by replay when the preparation phase begins"),
    Rule("GL-ISLAND-EFFECT", "Vorbereitungsphase (A)", "Apply the island's effect", "recorded",
         "Inseleffekt anwenden: Der Spieler wendet den Effekt der Inselkarte an, auf der er sich befindet",
         why="island texts are not in the rulebook"),
    Rule("GL-COST", "Hauptphase (A); Aktionsphase (B)", "A card or attack is paid for", "checked",
         "Der Spieler kann eine Karte aus seiner Hand ausspielen, indem er die entsprechende Anzahl von "
         "Aktionspunkten ausgibt [...] musst du ihre Kosten in Beli bezahlen",
         why="the cost is paid in the resource option `resource` selects"),
    Rule("GL-PLAY-PHASE", "Hauptphase (A); Aktionsphase (B)", "Cards are played in the main/action phase",
         "checked",
         "Aktionsphase in dieser Phase können die Spieler verschiedene Aktionen ausführen",
         why="a card with 'Schnell' or 'Reaktion' may be played at any time (recorded as quick)"),
    Rule("GL-CARD-TYPE", "Kartenarten; Kartentypen", "The four card types", "checked",
         "Es gibt vier Arten von Karten: Charaktere, Gegenstände, Ereignisse und Inseln. [...] Es gibt "
         "vier verschiedene Kartentypen im Spiel: Charaktere, Ereignisse, Orte und Schätze.",
         why="contradiction C10, option `card_types`"),
    Rule("GL-ITEM", "Kartenarten", "Items attach to a character of the same faction, one of each kind",
         "recorded",
         "Ein Gegenstand kann nur an einen Charakter der gleichen Fraktion angelegt werden, es sei denn, "
         "der Gegenstand hat keine Fraktion.",
         why="factions are not recorded"),
    Rule("GL-MOVE", "Hauptphase (A)", "Moving a character to an island costs 1 action point", "recorded",
         "Einen Charakter bewegen: Der Spieler kann einen seiner Charaktere in der Meereszone bewegen, "
         "indem er einen Aktionspunkt ausgibt.",
         why="positions on the Grand Line are not tracked"),
    Rule("GL-ATTACK-PHASE", "Kampfphase", "Attacks happen in the combat phase", "checked",
         "Kampfphase: In dieser Phase können die Spieler ihre Charaktere in der Meereszone angreifen "
         "lassen"),
    Rule("GL-ATTACKER", "Kampfphase", "The attacker is the player's own character on the field",
         "checked",
         "Der Spieler kann einen seiner Charaktere in der Meereszone verwenden"),
    Rule("GL-EXHAUSTED", "Kampfphase (B)", "An exhausted character cannot attack", "checked",
         "Eine erschöpfte Karte kann nicht erneut angreifen oder bestimmte Fähigkeiten aktivieren, bis "
         "sie wieder aufgerichtet wird.",
         why="combat `block` only (the compare system has no exhausting)"),
    Rule("GL-ATTACK-LIMIT", "Kampfphase (A) / (B)", "Up to two attacks per combat phase", "checked",
         "Jeder Spieler kann bis zu zwei Angriffe pro Kampfphase ausführen [...] Die Spieler führen "
         "abwechselnd einen Angriff aus, bis alle Spieler passen.",
         why="contradiction C7, option `attacks_per_phase`"),
    Rule("GL-BLOCK", "Kampfphase (B); Unausweichlich", "Blocking with one's own character; not an unblockable attack",
         "checked",
         "Der Gegner hat die Möglichkeit, eine seiner Charakterkarten auf dem Spielfeld als verteidigende "
         "Karte auszuwählen, um den Angriff zu blockieren. [...] Ein unausweichlicher Angriff ist eine "
         "Art von Angriff, der nicht geblockt werden kann.",
         why="combat `block` only; with `compare` there is no blocking"),
    Rule("GL-COMBAT", "Kampfphase (A) / (B)", "How an attack resolves", "recorded",
         "Wenn der Angriffswert höher oder gleich dem Verteidigungswert ist, wird der verteidigende "
         "Charakter zerstört [...] Wenn der Angriffswert gleich dem Verteidigungswert ist, werden sowohl "
         "die angreifende als auch die verteidigende Karte zerstört.",
         why="contradictions C6 and C8, option `combat`; applied by replay from the cards' recorded values"),
    Rule("GL-CAPTAIN-ATTACK", "Kampfphase (A)", "Attacking the Captain", "recorded",
         "Wenn der Angriffswert höher oder gleich dem Lebenswert ist, wird der Kapitän besiegt und der "
         "angreifende Spieler gewinnt das Spiel. Wenn der Angriffswert niedriger ist, wird der Lebenswert "
         "des Kapitäns um die Differenz zwischen dem Angriffswert und dem Lebenswert reduziert.",
         why="contradiction C9, option `captain_damage`; applied by replay"),
    Rule("GL-LIFE", "Allgemeines; Kampfphase (B)", "Life: 10 points or the Captain's", "recorded",
         "Jeder Spieler beginnt das Spiel mit 10 Lebenspunkten. Wenn ein Spieler 0 oder weniger "
         "Lebenspunkte hat, verliert er das Spiel.",
         why="contradiction C3, option `life`; applied by replay"),
    Rule("GL-CHARACTER-LIFE", "Kartenarten; Kartenattribute", "Characters with and without life",
         "recorded",
         "Wenn ein Charakter kein Leben hat, wird er zerstört, sobald er einen Angriff überlebt. Wenn ein "
         "Charakter ein Leben hat, wird er nur zerstört, wenn sein Leben auf null oder weniger reduziert "
         "wird.",
         why="contradiction C11, option `character_life`; applied by replay"),
    Rule("GL-HAND-LIMIT", "Endphase (A) / (B)", "Hand limit at the end of the round", "checked",
         "Der Spieler muss seine Handkarten auf fünf reduzieren, wenn er mehr als fünf hat. [...] Wenn du "
         "mehr als sechs Karten auf deiner Hand hast, musst du so viele Karten abwerfen, bis du nur noch "
         "sechs hast.",
         why="contradiction C1, option `hand_limit`; checked when the next round begins"),
    Rule("GL-UNTAP", "Endphase (B)", "Exhausted cards are readied in the end phase", "recorded",
         "Richte alle deine erschöpften Karten wieder auf.", why="applied by replay"),
    Rule("GL-VISIT", "Endphase (A)", "An island is visited once, for its victory points", "checked",
         "Er hat die Inselkarte noch nicht besucht. Wenn der Spieler die Inselkarte besucht, erhält er die "
         "Anzahl von Siegpunkten, die auf der Karte angegeben ist",
         why="the other conditions (own character there, no opposing one) need positions, not tracked"),
    Rule("GL-VP-10", "Allgemeines; Kartenattribute", "The first to 10 victory points wins", "recorded",
         "Der erste Spieler, der 10 Siegpunkte erreicht, gewinnt das Spiel.", why="applied by replay"),
    Rule("GL-RAFTEL", "Endphase (A)", "Raftel, the last island, is worth 5", "recorded",
         "Die letzte Inselkarte ist die legendäre Insel Raftel, die 5 Siegpunkte wert ist und besondere "
         "Regeln hat (siehe Abschnitt 10. Spielende).",
         why="'Abschnitt 10. Spielende' is not in the text; the visit records its points"),
    Rule("GL-SAME-NAME", "Karten mit demselben Namen", "A card with the same name replaces the one in play",
         "recorded",
         "Wenn eine Karte mit demselben Namen wie eine andere Karte, die sich bereits in einem Spielbereich "
         "befindet, in diesen Spielbereich gelegt wird, wird die bereits vorhandene Karte in den Friedhof "
         "gelegt.", why="applied by replay"),
    Rule("GL-SAME-TYPE", "Karten mit demselben Typ", "A card with the same type replaces the one in play",
         "recorded",
         "Wenn eine Karte mit demselben Typ wie eine andere Karte, die sich bereits in einem Spielbereich "
         "befindet, in diesen Spielbereich gelegt wird, wird die bereits vorhandene Karte in den Friedhof "
         "gelegt.", why="contradiction C12, option `same_type_rule`; applied by replay when enforced"),
    Rule("GL-REACTION", "Schlüsselwörter: Reaktion", "Reaction chains resolve last in, first out",
         "recorded",
         "Dann werden die Effekte der Aktionen in umgekehrter Reihenfolge abgewickelt, beginnend mit der "
         "letzten Reaktion und endend mit der ursprünglichen Aktion.",
         why="the log records each card's effect as it resolved"),
    Rule("GL-KEYWORDS", "Schlüsselwörter: Schnell, Unantastbar", "Quick and untouchable cards", "recorded",
         "Eine unantastbare Karte kann nicht durch Fähigkeiten oder Effekte ausgewählt oder beeinflusst "
         "werden, die das Wort “Ziele” enthalten.", why="card texts are not recorded"),
    Rule("GL-MISC", "Sonstiges", "Choices and missing cards", "n/a",
         "Wenn eine Karte oder ein Effekt eine bestimmte Anzahl von Karten verlangt, aber diese Anzahl "
         "nicht vorhanden ist, wird die maximale Anzahl von Karten verwendet, die vorhanden ist.",
         why="how players resolve card texts; nothing to check in a log"),
    Rule("GL-END", "Spielablauf", "Nothing is played after the game ended", "checked",
         "Das Spiel geht so lange weiter, bis ein Spieler gewinnt oder alle Spieler aufgeben."),
)

# Every contradiction of the text: (id, what, reading chosen, option and its values).
CONTRADICTIONS = (
    ("C1", "hand limit five (Endphase A) or six (Endphase B)", "six", "hand_limit: 6 | 5"),
    ("C2", "empty deck: reshuffle the discard (A) or lose (B)", "lose", "deck_out: lose | reshuffle"),
    ("C3", "life: 10 life points per player (B) or the Captain's life value (A)", "10 per player",
     "life: player-10 | captain"),
    ("C4", "start player: highest Captain initiative, fixed (A) or die roll, rotating clockwise (B)",
     "rotating", "turn_structure: rotating | initiative"),
    ("C5", "resource: action points = initiative + 2 for the first player, reset each round (A) or Beli "
     "+1 per round (B)", "Beli", "resource: beli | action-points"),
    ("C6", "combat: attack against defence/Captain life, no blocking (A) or exhaust, block, direct "
     "attack on life points (B)", "block", "combat: block | compare"),
    ("C7", "attacks: alternate until all pass (A) or up to two per combat phase (B)", "two",
     "attacks_per_phase: 2 | 0 (no limit)"),
    ("C8", "attack equal to defence: the defender is destroyed (A) or both are (B)", "both (with block)",
     "combat: block | compare"),
    ("C9", "Captain hit below its life: life reduced 'um die Differenz' (literally life - attack, "
     "leaving life = attack) or by the attack", "by the attack", "captain_damage: attack | difference"),
    ("C10", "card types: Charaktere, Gegenstände, Ereignisse, Inseln (A) or Charaktere, Ereignisse, Orte, "
     "Schätze (B)", "all six", "card_types: all | items-islands | locations-treasures"),
    ("C11", "characters: destroyed by attack >= defence (Kampfphase) or only when life reaches 0, and a "
     "lifeless one destroyed 'sobald er einen Angriff überlebt' (Kartenarten)", "combat decides",
     "character_life: combat-only | life-pool"),
    ("C12", "same type rule: a card of the same type sends the one in play to the graveyard, which "
     "would allow one Character on the field, against a Meereszone of characters", "ignored",
     "same_type_rule: ignore | enforce"),
)
